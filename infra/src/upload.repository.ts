import {
  COMPLETED_PROGRESS,
  initialApproval,
  isExportValid,
  keptAcceptances,
  merchantKey,
  actingWorkspace,
  personalWorkspace,
  receiptChanges,
  uniqueTags,
  workspaceAllows,
  type EngineName,
  type Lane,
  type PipelineStep,
  type UploadStatus,
} from '@receipts/common';
import { TransactionRollbackError, and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Executor } from './db/database.js';
import { receiptEdits, receipts, uploads, type ReceiptRow, type UploadRow } from './db/schema.js';
import { isQuotaRefusal, quotaReservation, releaseQuota, reservationValues, reserveQuota, type QuotaOwner, type QuotaPolicy } from './quota.service.js';
import { sameFileQuery } from './upload-duplicate.repository.js';
import { auditCte, recordAudit } from './audit.repository.js';
import { ownedBy } from './upload-scope.js';
import { toReceiptView } from './upload-view.js';

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

/** A receipt as the extraction produced it (the receipts row without its keys and times; the merchant's key is worked out here). */
export type ExtractedReceipt = Omit<typeof receipts.$inferInsert, 'id' | 'uploadId' | 'merchantKey' | 'createdAt' | 'updatedAt'>;

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
 * Uploads: the one place that changes an upload's state (the lifecycle above), takes and returns
 * its quota unit, and writes its receipt. api and worker go through it; nothing else writes the
 * uploads table but the duplicate flags (upload-duplicate.repository.ts). Reads are in
 * upload-read.repository.ts.
 */
export class UploadRepository {
  private readonly createStatements = new Map<string, UploadInsert>();

  constructor(private readonly db: Database) {}


  /**
   * Records a new upload and takes its quota unit in one statement (one round trip, where a
   * transaction took four); null, with nothing written, when the owner has no unit left. The
   * same file again is flagged for the owner to keep or delete, never dropped: the owner's
   * earliest live upload of the very same bytes is looked up inside the insert.
   */
  async create(upload: NewUpload, policy: QuotaPolicy): Promise<UploadRow | null> {
    const { owner } = upload;
    const workspace = actingWorkspace(owner);
    const kind = !workspace ? 'anon' : workspaceAllows(workspace.role, 'receipts:all', workspace) ? 'workspace' : 'member';
    const statement = this.createStatement(kind, policy.subjects.length);
    try {
      const [inserted] = await statement.execute({
        ...reservationValues(policy),
        id: upload.id,
        ownerId: workspace ? workspace.id : owner.anonId,
        workspaceId: workspace?.id ?? null,
        userId: owner.userId,
        anonId: owner.userId ? null : owner.anonId,
        filename: upload.filename,
        mimeType: upload.mimeType,
        size: upload.size,
        sha256: upload.sha256,
        currencyCode: upload.currencyCode,
        lane: upload.lane,
        // A member's receipt in a team workspace waits for an approver; anyone else's counts as it is.
        approvalStatus: workspace ? initialApproval(workspace.role, workspace.personal) : 'not-required',
      });
      return inserted!;
    } catch (err) {
      if (isQuotaRefusal(err)) return null;
      throw err;
    }
  }

  /**
   * The upload's insert as a prepared statement, one per kind of owner and number of quota
   * subjects, built once: building it anew (a CTE-laden insert returning every column) was the
   * largest share of the api's CPU and garbage per upload.
   */
  private createStatement(kind: 'workspace' | 'member' | 'anon', subjectCount: number) {
    const key = `${kind}:${subjectCount}`;
    let statement = this.createStatements.get(key);
    if (!statement) {
      const ownerId = sql.placeholder('ownerId');
      // The same file is looked for among the uploads the uploader can see (ownedBy).
      const owned = {
        workspace: eq(uploads.workspaceId, ownerId),
        member: and(eq(uploads.workspaceId, ownerId), eq(uploads.userId, sql.placeholder('userId'))),
        anon: and(eq(uploads.anonId, ownerId), isNull(uploads.userId)),
      }[kind];
      const sameFile = this.db.$with('same_file').as(sameFileQuery(this.db, owned!, sql.placeholder('sha256')));
      const { reserved, charges } = quotaReservation(this.db, subjectCount);
      const p = sql.placeholder;
      // An account's upload is an act of its workspace's trail, recorded by this very statement.
      const audited =
        kind === 'anon'
          ? []
          : [
              auditCte(this.db, 'upload_audited', {
                workspaceId: p('workspaceId'),
                actorId: p('userId'),
                action: 'receipt.uploaded',
                subject: p('id'),
                detail: sql`jsonb_build_object('filename', ${p('filename')}::text)`,
              }),
            ];
      statement = this.db
        .with(reserved, sameFile, ...audited)
        .insert(uploads)
        .values({
          id: p('id'),
          workspaceId: p('workspaceId'),
          userId: p('userId'),
          anonId: p('anonId'),
          filename: p('filename'),
          mimeType: p('mimeType'),
          size: p('size'),
          sha256: p('sha256'),
          currencyCode: p('currencyCode'),
          lane: p('lane'),
          approvalStatus: p('approvalStatus'),
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
      const values = {
        ...receipt,
        merchantKey: receipt.merchantName == null ? null : merchantKey(receipt.merchantName),
        tags,
        uploadId: id,
        acceptedIssues,
        valid: isExportValid(receipt, receipt.issues, acceptedIssues),
      };
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

  /**
   * Deletes the owner's upload and what was extracted from it (by cascade), an account's deletion
   * recorded in its workspace's trail with it; false when there is none.
   */
  async remove(owner: QuotaOwner, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(uploads)
        .where(and(eq(uploads.id, id), ownedBy(owner)))
        .returning({ id: uploads.id, workspaceId: uploads.workspaceId, filename: uploads.filename });
      if (deleted?.workspaceId && owner.userId) {
        await recordAudit(tx, { workspaceId: deleted.workspaceId, actorId: owner.userId, action: 'receipt.deleted', subject: id, detail: { filename: deleted.filename } });
      }
      return Boolean(deleted);
    });
  }

  /** Moves an anonymous visitor's uploads to the account they signed in to, into its personal workspace; how many moved. */
  async claimAnonymous(anonId: string, userId: string): Promise<number> {
    const moved = await this.db
      .update(uploads)
      .set({ userId, workspaceId: personalWorkspace(userId).id, anonId: null, updatedAt: new Date() })
      .where(and(eq(uploads.anonId, anonId), isNull(uploads.userId)))
      .returning({ id: uploads.id });
    return moved.length;
  }

  /** The retention sweep deleted these originals; the extracted data stays. */
  async markOriginalsDeleted(ids: readonly string[]): Promise<void> {
    await this.db.update(uploads).set({ originalDeletedAt: new Date() }).where(inArray(uploads.id, [...ids]));
  }
}
