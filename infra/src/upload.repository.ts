import {
  COMPLETED_PROGRESS,
  isExportValid,
  keptAcceptances,
  receiptChanges,
  uniqueTags,
  type DuplicateOf,
  type EngineName,
  type Lane,
  type LaneTimes,
  type PipelineStep,
  type UploadStatus,
  type UploadView,
} from '@receipts/common';
import { TransactionRollbackError, and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Executor } from './db/database.js';
import { receiptEdits, receipts, uploads, users, type ReceiptRow, type UploadRow } from './db/schema.js';
import { isQuotaRefusal, quotaReservation, releaseQuota, reservationValues, reserveQuota, type QuotaOwner, type QuotaPolicy } from './quota.service.js';
import { toDuplicateOf, toReceiptView, toUploadView } from './upload-view.js';

/**
 * The upload lifecycle: every move that changes an upload's status, with the statuses it may
 * start from. A move is one UPDATE guarded by them, so of two racing moves (a cancel and a
 * completion, two workers claiming) exactly one wins and the other finds nothing to change.
 */
export const UPLOAD_MOVES = {
  /** A worker takes the upload; `processing` again when a crashed worker's job starts over. */
  claim: ['queued', 'processing'],
  /** A step's progress, written only while processing (a cancelled upload stops its worker). */
  progress: ['processing'],
  complete: ['processing'],
  fail: ['queued', 'processing'],
  cancel: ['queued', 'processing'],
  /** A worker shutting down hands its job back. */
  handBack: ['processing'],
  /** An admin puts a failed upload back in its lane. */
  retry: ['failed'],
  /** The owner extracts a finished upload again. */
  reextract: ['completed', 'failed', 'cancelled'],
  /** A re-extraction that could not be queued goes back to where it was. */
  restore: ['queued'],
} as const satisfies Record<string, readonly UploadStatus[]>;

export type UploadMove = keyof typeof UPLOAD_MOVES;

export function mayMove(move: UploadMove, status: UploadStatus): boolean {
  return (UPLOAD_MOVES[move] as readonly UploadStatus[]).includes(status);
}

/** The owner's uploads: the account's, or an anonymous session's not yet taken over by an account. */
export function ownedBy(owner: Pick<QuotaOwner, 'userId' | 'anonId'>): SQL {
  if (owner.userId) return eq(uploads.userId, owner.userId);
  if (owner.anonId) return and(eq(uploads.anonId, owner.anonId), isNull(uploads.userId))!;
  throw new Error('An owner has an account or an anonymous session');
}

/** Select this beside an upload (left-joined on `duplicateOf`) to name the earlier upload it repeats. */
export const duplicateOriginal = alias(uploads, 'original');

/** Statuses of an upload that stands for a receipt (a failed or cancelled one does not). */
const LIVE: UploadStatus[] = ['queued', 'processing', 'completed'];

export interface NewUpload {
  id: string;
  owner: QuotaOwner;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  currencyCode: string | null;
  lane: Lane;
}

/** A receipt as the extraction produced it (the receipts row without its keys and times). */
export type ExtractedReceipt = Omit<typeof receipts.$inferInsert, 'id' | 'uploadId' | 'createdAt' | 'updatedAt'>;

/** An upload that ended by a cancel or a failure; `refunded` when its unit came back just now. */
export interface EndedUpload {
  upload: UploadRow;
  refunded: boolean;
}

export type ReextractOutcome =
  | { queued: UploadRow; previous: UploadRow }
  | { refused: 'not-found' | 'active' | 'original-deleted' | 'quota-exceeded' };

function move(db: Executor, name: UploadMove, where: SQL, set: PgUpdateSetSource<typeof uploads>): Promise<UploadRow[]> {
  return db
    .update(uploads)
    .set({ ...set, updatedAt: new Date() })
    .where(and(where, inArray(uploads.status, [...UPLOAD_MOVES[name]])))
    .returning();
}

/** Returns the upload's units unless they came back before: the flag and the counters change together. */
async function refundOnce(tx: Executor, id: string): Promise<boolean> {
  const [upload] = await tx
    .update(uploads)
    .set({ quotaRefunded: true })
    .where(and(eq(uploads.id, id), eq(uploads.quotaRefunded, false)))
    .returning({ charges: uploads.quotaCharges });
  if (!upload) return false;
  await releaseQuota(tx, upload.charges);
  return upload.charges.length > 0;
}

/** Absorbs the rollback that refuses a reservation: `refused` instead. */
function refusedOnRollback<T>(err: unknown, refused: T): T {
  if (err instanceof TransactionRollbackError) return refused;
  throw err;
}

/** A prepared statement that records an upload: its placeholders' values in, the new row out. */
interface UploadInsert {
  execute(values: Record<string, unknown>): Promise<UploadRow[]>;
}

/**
 * Uploads: the one place that reads and changes an upload's state (the lifecycle above), takes
 * and returns its quota unit, and writes its receipt. api and worker go through it; nothing
 * else writes the uploads table.
 */
export class UploadRepository {
  private readonly createStatements = new Map<string, UploadInsert>();

  constructor(private readonly db: Database) {}

  // Reads

  private views() {
    return this.db
      .select({ upload: uploads, receipt: receipts, originalFilename: duplicateOriginal.filename })
      .from(uploads)
      .leftJoin(receipts, eq(receipts.uploadId, uploads.id))
      .leftJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf));
  }

  /** The owner's upload with its receipt; another owner's is null, as if it did not exist. */
  async view(owner: QuotaOwner, id: string): Promise<UploadView | null> {
    const [row] = await this.views().where(and(eq(uploads.id, id), ownedBy(owner)));
    return row ? toUploadView(row.upload, row.receipt, toDuplicateOf(row.upload, row.originalFilename)) : null;
  }

  /** The owner's latest uploads, newest first. */
  async list(owner: QuotaOwner, limit = 500): Promise<UploadView[]> {
    const rows = await this.views().where(ownedBy(owner)).orderBy(desc(uploads.createdAt)).limit(limit);
    return rows.map((r) => toUploadView(r.upload, r.receipt, toDuplicateOf(r.upload, r.originalFilename)));
  }

  /** Uploads of the account still queued or processing. */
  async activeCount(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(uploads)
      .where(and(eq(uploads.userId, userId), inArray(uploads.status, ['queued', 'processing'])));
    return row?.n ?? 0;
  }

  /** Queued uploads untouched since `queuedBefore` and processing ones silent since `processingBefore`, oldest first. */
  stale(queuedBefore: Date, processingBefore: Date, limit: number): Promise<Array<Pick<UploadRow, 'id' | 'lane'>>> {
    return this.db
      .select({ id: uploads.id, lane: uploads.lane })
      .from(uploads)
      .where(
        or(
          and(eq(uploads.status, 'queued'), lt(uploads.updatedAt, queuedBefore)),
          and(eq(uploads.status, 'processing'), lt(uploads.updatedAt, processingBefore)),
        ),
      )
      .orderBy(asc(uploads.createdAt))
      .limit(limit);
  }

  /** The admin screen's page of uploads, newest first, with the owner's e-mail. */
  adminPage(status: UploadStatus | undefined, page: number, pageSize: number) {
    return this.db
      .select({
        id: uploads.id,
        filename: uploads.filename,
        status: uploads.status,
        error: uploads.error,
        lane: uploads.lane,
        attempts: uploads.attempts,
        createdAt: uploads.createdAt,
        ownerEmail: users.email,
      })
      .from(uploads)
      .leftJoin(users, eq(users.id, uploads.userId))
      .where(status ? eq(uploads.status, status) : undefined)
      .orderBy(desc(uploads.createdAt))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  }

  async countByStatus(status: UploadStatus): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(uploads).where(eq(uploads.status, status));
    return row?.n ?? 0;
  }

  /**
   * A page of the owner's uploads whose original file is still stored, oldest first, after the
   * upload `after` (for a copy of all their data).
   */
  async storedOriginals(owner: QuotaOwner, after: { at: string; id: string } | null, limit: number) {
    return this.db
      // The time as text keeps its microseconds, so the next page starts exactly after this one.
      .select({ id: uploads.id, filename: uploads.filename, createdAt: uploads.createdAt, at: sql<string>`${uploads.createdAt}::text` })
      .from(uploads)
      .where(and(ownedBy(owner), isNull(uploads.originalDeletedAt), after ? sql`(${uploads.createdAt}, ${uploads.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined))
      .orderBy(asc(uploads.createdAt), asc(uploads.id))
      .limit(limit);
  }

  /** Uploads created before `before` whose original file is still stored and no longer needed by a job. */
  async originalsDue(before: Date, limit: number): Promise<string[]> {
    const due = await this.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(isNull(uploads.originalDeletedAt), lt(uploads.createdAt, before), notInArray(uploads.status, ['queued', 'processing'])))
      .orderBy(asc(uploads.createdAt))
      .limit(limit);
    return due.map((u) => u.id);
  }

  // Lifecycle

  /**
   * Records a new upload and takes its quota unit in one statement (one round trip, where a
   * transaction took four); null, with nothing written, when the owner has no unit left. The
   * same file again is flagged for the owner to keep or delete, never dropped: the owner's
   * earliest live upload of the very same bytes is looked up inside the insert.
   */
  async create(upload: NewUpload, policy: QuotaPolicy): Promise<UploadRow | null> {
    const { owner } = upload;
    const kind = owner.userId ? 'user' : 'anon';
    const statement = this.createStatement(kind, policy.subjects.length);
    try {
      const [inserted] = await statement.execute({
        ...reservationValues(policy),
        id: upload.id,
        ownerId: kind === 'user' ? owner.userId : owner.anonId,
        userId: owner.userId,
        anonId: owner.userId ? null : owner.anonId,
        filename: upload.filename,
        mimeType: upload.mimeType,
        size: upload.size,
        sha256: upload.sha256,
        currencyCode: upload.currencyCode,
        lane: upload.lane,
      });
      return inserted!;
    } catch (err) {
      if (isQuotaRefusal(err)) return null;
      throw err;
    }
  }

  /** The owner's earliest live upload of the very same bytes (the one a new upload of them would be flagged a duplicate of), or null. */
  async sameFile(owner: QuotaOwner, sha256: string): Promise<Pick<UploadRow, 'id' | 'filename' | 'createdAt'> | null> {
    const [row] = await this.db
      .select({ id: uploads.id, filename: uploads.filename, createdAt: uploads.createdAt })
      .from(uploads)
      .where(and(ownedBy(owner), eq(uploads.sha256, sha256), inArray(uploads.status, LIVE)))
      .orderBy(asc(uploads.createdAt), asc(uploads.id))
      .limit(1);
    return row ?? null;
  }

  /**
   * The upload's insert as a prepared statement, one per kind of owner and number of quota
   * subjects, built once: building it anew (a CTE-laden insert returning every column) was the
   * largest share of the api's CPU and garbage per upload.
   */
  private createStatement(kind: 'user' | 'anon', subjectCount: number) {
    const key = `${kind}:${subjectCount}`;
    let statement = this.createStatements.get(key);
    if (!statement) {
      const ownerId = sql.placeholder('ownerId');
      const owned = kind === 'user' ? eq(uploads.userId, ownerId) : and(eq(uploads.anonId, ownerId), isNull(uploads.userId));
      const sameFile = this.db.$with('same_file').as(
        this.db
          .select({ id: uploads.id })
          .from(uploads)
          .where(and(owned, eq(uploads.sha256, sql.placeholder('sha256')), inArray(uploads.status, LIVE)))
          .orderBy(asc(uploads.createdAt), asc(uploads.id))
          .limit(1),
      );
      const { reserved, charges } = quotaReservation(this.db, subjectCount);
      const p = sql.placeholder;
      statement = this.db
        .with(reserved, sameFile)
        .insert(uploads)
        .values({
          id: p('id'),
          userId: p('userId'),
          anonId: p('anonId'),
          filename: p('filename'),
          mimeType: p('mimeType'),
          size: p('size'),
          sha256: p('sha256'),
          currencyCode: p('currencyCode'),
          lane: p('lane'),
          quotaCharges: charges,
          duplicateOf: sql`(select id from ${sameFile})`,
          duplicateReason: sql`(select 'same-file' from ${sameFile})`,
        })
        .returning()
        .prepare(`upload_create_${kind}_${subjectCount}`);
      this.createStatements.set(key, statement);
    }
    return statement;
  }

  /**
   * How long the uploads of the last `hours` took from arrival to result, per lane: the median
   * and the 95th percentile of those read completely. Uploads that arrived in the window only, so
   * a re-extraction of an old upload (its arrival long ago) does not count its age.
   */
  async processingTimes(hours: number): Promise<LaneTimes[]> {
    const took = sql`extract(epoch from ${uploads.finishedAt} - ${uploads.createdAt}) * 1000`;
    const rows = await this.db
      .select({
        lane: uploads.lane,
        receipts: count(),
        p50Ms: sql<number>`percentile_cont(0.5) within group (order by ${took})`.mapWith(Number),
        p95Ms: sql<number>`percentile_cont(0.95) within group (order by ${took})`.mapWith(Number),
      })
      .from(uploads)
      .where(and(eq(uploads.status, 'completed'), isNotNull(uploads.finishedAt), gte(uploads.createdAt, sql`now() - make_interval(hours => ${hours})`)))
      .groupBy(uploads.lane)
      .orderBy(uploads.lane);
    return rows;
  }

  /**
   * The owner's waiting uploads, each with how many waiting uploads are taken before it: the
   * express lane's before the standard lane's, then by arrival (the queue's order; lane aging may
   * move a long-waiting standard upload up, so it is an upper bound).
   */
  async queuePlaces(owner: QuotaOwner): Promise<Array<{ id: string; ahead: number }>> {
    // Written out: inside a subquery the ORM names columns without their table.
    const ahead = sql<number>`(SELECT count(*) FROM uploads AS q WHERE q.status = 'queued' AND (
        (q.lane = 'express' AND uploads.lane = 'standard')
        OR (q.lane = uploads.lane AND (q.created_at, q.id) < (uploads.created_at, uploads.id))))`.mapWith(Number);
    return this.db
      .select({ id: uploads.id, ahead })
      .from(uploads)
      .where(and(ownedBy(owner), eq(uploads.status, 'queued')))
      .orderBy(asc(uploads.createdAt));
  }

  /** How many uploads were finished (read or failed) in the last `ms`: the rate a wait is estimated from. */
  async finishedWithin(ms: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(uploads)
      .where(and(inArray(uploads.status, ['completed', 'failed']), gte(uploads.finishedAt, sql`now() - make_interval(secs => ${ms / 1000})`)));
    return Number(row?.n ?? 0);
  }

  /** A worker takes a queued upload (or one a crashed worker left processing); null when it ended or is gone. */
  async claim(id: string): Promise<UploadRow | null> {
    const [claimed] = await move(this.db, 'claim', eq(uploads.id, id), {
      status: 'processing',
      progress: 0,
      step: null,
      error: null,
      attempts: sql`${uploads.attempts} + 1`,
      startedAt: new Date(),
    });
    return claimed ?? null;
  }

  /** Whether the upload's row is there at all (ended or not). */
  async exists(id: string): Promise<boolean> {
    const [found] = await this.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id));
    return Boolean(found);
  }

  /** Records a step's progress; false when the upload is no longer processing (cancelled: stop). */
  async progress(id: string, progress: number, step: PipelineStep): Promise<boolean> {
    const [still] = await move(this.db, 'progress', eq(uploads.id, id), { progress, step });
    return Boolean(still);
  }

  /**
   * The receipt write: completes a processing upload and stores its receipt in one transaction,
   * or writes nothing and returns null when it was cancelled meanwhile. One receipt per upload
   * (a unique key), so a job run twice never stores two; a re-extraction replaces the receipt
   * under its id and records what it changed.
   */
  async complete(id: string, receipt: ExtractedReceipt): Promise<ReceiptRow | null> {
    return this.db.transaction(async (tx) => {
      const [done] = await move(tx, 'complete', eq(uploads.id, id), {
        status: 'completed',
        progress: COMPLETED_PROGRESS,
        step: null,
        finishedAt: new Date(),
      });
      if (!done) return null;
      const [before] = await tx.select().from(receipts).where(eq(receipts.uploadId, id));
      // A re-extraction keeps what a person accepted of the flags the new reading still raises.
      const acceptedIssues = before ? keptAcceptances(before.acceptedIssues, receipt, receipt.issues) : [];
      // The owner's tags are theirs, not the reading's: a re-extraction keeps them beside any a rule gives.
      const tags = before ? uniqueTags([...before.tags, ...(receipt.tags ?? [])]) : (receipt.tags ?? []);
      const values = { ...receipt, tags, uploadId: id, acceptedIssues, valid: isExportValid(receipt, receipt.issues, acceptedIssues) };
      const [row] = await tx
        .insert(receipts)
        .values(values)
        .onConflictDoUpdate({ target: receipts.uploadId, set: { ...values, updatedAt: new Date() } })
        .returning();
      if (before) {
        const changes = receiptChanges(toReceiptView(before), toReceiptView(row!));
        await tx.insert(receiptEdits).values({ receiptId: row!.id, kind: 'reextraction', changes });
      }
      return row!;
    });
  }

  /** Ends a queued or processing upload as failed and returns its unit; null when it had already ended. */
  async fail(id: string, message: string): Promise<EndedUpload | null> {
    return this.db.transaction(async (tx) => {
      const [failed] = await move(tx, 'fail', eq(uploads.id, id), { status: 'failed', error: message, step: null, finishedAt: new Date() });
      return failed ? { upload: failed, refunded: await refundOnce(tx, id) } : null;
    });
  }

  /**
   * Cancels the owner's queued or processing upload and returns its unit; null when it had
   * already ended (or is not the owner's). A cancelled re-extraction goes back to the receipt
   * it had: completed, at 100.
   */
  async cancel(owner: QuotaOwner, id: string): Promise<EndedUpload | null> {
    const hasReceipt = sql`EXISTS (SELECT 1 FROM ${receipts} WHERE ${receipts.uploadId} = ${uploads.id})`;
    return this.db.transaction(async (tx) => {
      const [cancelled] = await move(tx, 'cancel', and(eq(uploads.id, id), ownedBy(owner))!, {
        status: sql`CASE WHEN ${hasReceipt} THEN 'completed' ELSE 'cancelled' END`,
        progress: sql`CASE WHEN ${hasReceipt} THEN ${COMPLETED_PROGRESS} ELSE ${uploads.progress} END`,
        step: null,
        finishedAt: new Date(),
      });
      return cancelled ? { upload: cancelled, refunded: await refundOnce(tx, id) } : null;
    });
  }

  /** Cancels every queued or processing upload of the owner (account deletion: no unit is returned); their ids. */
  async cancelAll(owner: QuotaOwner): Promise<string[]> {
    const stopped = await move(this.db, 'cancel', ownedBy(owner), { status: 'cancelled', step: null, finishedAt: new Date() });
    return stopped.map((u) => u.id);
  }

  /** A worker shutting down puts a processing upload back in the queue; false when it had ended. */
  async handBack(id: string): Promise<boolean> {
    const [back] = await move(this.db, 'handBack', eq(uploads.id, id), { status: 'queued', progress: 0, step: null });
    return Boolean(back);
  }

  /** Puts a failed upload back in the queue, without taking a unit; null when it is not failed. */
  async retry(id: string): Promise<UploadRow | null> {
    const [queued] = await move(this.db, 'retry', eq(uploads.id, id), { status: 'queued', error: null, progress: 0, step: null, finishedAt: null });
    return queued ?? null;
  }

  /**
   * Queues the owner's finished upload again, taking a unit like any extraction (the earlier
   * receipt stays until the new one replaces it). `previous` is what `restore` puts back.
   */
  async reextract(owner: QuotaOwner, id: string, run: { engine: EngineName | null; lane: Lane }, policy: QuotaPolicy): Promise<ReextractOutcome> {
    return this.db
      .transaction(async (tx): Promise<ReextractOutcome> => {
        const [previous] = await tx.select().from(uploads).where(and(eq(uploads.id, id), ownedBy(owner))).for('update');
        if (!previous) return { refused: 'not-found' };
        if (!mayMove('reextract', previous.status)) return { refused: 'active' };
        if (previous.originalDeletedAt) return { refused: 'original-deleted' };
        const charges = await reserveQuota(tx, policy);
        if (!charges) return tx.rollback();
        const [queued] = await move(tx, 'reextract', eq(uploads.id, id), {
          status: 'queued',
          progress: 0,
          step: null,
          error: null,
          engine: run.engine,
          lane: run.lane,
          quotaCharges: charges,
          quotaRefunded: false,
          startedAt: null,
          finishedAt: null,
        });
        return { queued: queued!, previous };
      })
      .catch((err: unknown) => refusedOnRollback<ReextractOutcome>(err, { refused: 'quota-exceeded' }));
  }

  /** A re-extraction that could not be queued: the upload returns to its earlier state and the new unit comes back. */
  async restore(previous: UploadRow): Promise<void> {
    const { id, status, progress, error, engine, finishedAt } = previous;
    await this.db.transaction(async (tx) => {
      const [restored] = await move(tx, 'restore', eq(uploads.id, id), { status, progress, error, engine, finishedAt });
      if (restored) await refundOnce(tx, id);
    });
  }

  // Everything else about an upload

  /** Deletes the owner's upload and what was extracted from it (by cascade); false when there is none. */
  async remove(owner: QuotaOwner, id: string): Promise<boolean> {
    const [deleted] = await this.db
      .delete(uploads)
      .where(and(eq(uploads.id, id), ownedBy(owner)))
      .returning({ id: uploads.id });
    return Boolean(deleted);
  }

  /** The owner keeps an upload flagged as a possible duplicate: the flag goes and is not set again. */
  async keep(owner: QuotaOwner, id: string): Promise<boolean> {
    const [kept] = await this.db
      .update(uploads)
      .set({ duplicateOf: null, duplicateReason: null, duplicateKept: true, updatedAt: new Date() })
      .where(and(eq(uploads.id, id), ownedBy(owner)))
      .returning({ id: uploads.id });
    return Boolean(kept);
  }

  /** Moves an anonymous visitor's uploads to the account they signed in to; how many moved. */
  async claimAnonymous(anonId: string, userId: string): Promise<number> {
    const moved = await this.db
      .update(uploads)
      .set({ userId, anonId: null, updatedAt: new Date() })
      .where(and(eq(uploads.anonId, anonId), isNull(uploads.userId)))
      .returning({ id: uploads.id });
    return moved.length;
  }

  /** The retention sweep deleted these originals; the extracted data stays. */
  async markOriginalsDeleted(ids: readonly string[]): Promise<void> {
    await this.db.update(uploads).set({ originalDeletedAt: new Date() }).where(inArray(uploads.id, [...ids]));
  }

  /**
   * Flags (or clears) "same receipt" duplicates after an upload's receipt was written or
   * corrected: another receipt of the owner with the same merchant, date and total makes the
   * later of the two a possible duplicate of the earlier. A same-file flag and an owner's
   * "keep" are left as they are. Returns this upload's flag afterwards.
   */
  async refreshDuplicateFlags(uploadId: string): Promise<DuplicateOf | null> {
    const { db } = this;
    const [self] = await db
      .select({ upload: uploads, merchantName: receipts.merchantName, date: receipts.date, total: receipts.total })
      .from(uploads)
      .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
      .where(eq(uploads.id, uploadId));
    if (!self) return null;
    const { upload } = self;

    // Uploads flagged as repeating this one may no longer match it after a correction.
    const dependants = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.duplicateOf, upload.id), eq(uploads.duplicateReason, 'same-receipt')));

    let match: { id: string; createdAt: Date } | undefined;
    if (self.merchantName && self.date && self.total !== null) {
      [match] = await db
        .select({ id: uploads.id, createdAt: uploads.createdAt })
        .from(uploads)
        .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
        .where(
          and(
            ownedBy(upload),
            ne(uploads.id, upload.id),
            eq(receipts.date, self.date),
            eq(receipts.total, self.total),
            sql`${merchantKey(receipts.merchantName)} = ${merchantKey(sql`${self.merchantName}`)}`,
            // Never flag an upload as a duplicate of one that is itself flagged as a duplicate of it.
            or(isNull(uploads.duplicateOf), ne(uploads.duplicateOf, upload.id)),
          ),
        )
        .orderBy(asc(uploads.createdAt), asc(uploads.id))
        .limit(1);
    }
    const earlier = match && (match.createdAt < upload.createdAt || (match.createdAt.getTime() === upload.createdAt.getTime() && match.id < upload.id));

    if (upload.duplicateReason !== 'same-file' && !upload.duplicateKept) {
      const duplicateOf = match && earlier ? match.id : null;
      if (duplicateOf !== upload.duplicateOf) {
        await db
          .update(uploads)
          .set({ duplicateOf, duplicateReason: duplicateOf ? 'same-receipt' : null, updatedAt: new Date() })
          .where(eq(uploads.id, upload.id));
      }
    }
    if (match && !earlier) {
      // The later twin was stored first: it is the one to flag.
      await db
        .update(uploads)
        .set({ duplicateOf: upload.id, duplicateReason: 'same-receipt', updatedAt: new Date() })
        .where(and(eq(uploads.id, match.id), isNull(uploads.duplicateOf), eq(uploads.duplicateKept, false)));
    }
    for (const dependant of dependants) {
      if (dependant.id !== match?.id) await this.refreshDuplicateFlags(dependant.id);
    }
    const [flag] = await db
      .select({ uploadId: duplicateOriginal.id, filename: duplicateOriginal.filename, reason: uploads.duplicateReason })
      .from(uploads)
      .innerJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf))
      .where(eq(uploads.id, upload.id));
    return flag?.reason ? { uploadId: flag.uploadId, filename: flag.filename, reason: flag.reason } : null;
  }
}

/** Merchant names compared on their letters and digits, whatever the case and punctuation. */
export const merchantKey = (column: SQL | typeof receipts.merchantName) => sql`upper(regexp_replace(${column}, '[^[:alnum:]]', '', 'g'))`;
