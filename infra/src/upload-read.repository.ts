import type { LaneTimes, UploadStatus, UploadView } from '@receipts/common';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { receipts, uploads, users, type UploadRow } from './db/schema.js';
import type { QuotaOwner } from './quota.service.js';
import { duplicateOriginal, ownedBy } from './upload-scope.js';
import { toDuplicateOf, toUploadView } from './upload-view.js';

/**
 * What the api, the worker and the retention sweep read about uploads: the owner's views, the
 * admin screen, the queue's figures and the sweeps' pages. Reads only; the lifecycle changes an
 * upload (upload.repository.ts).
 */
export class UploadReadRepository {
  constructor(private readonly db: Database) {}

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

  /** Whether the upload's row is there at all (ended or not). */
  async exists(id: string): Promise<boolean> {
    const [found] = await this.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id));
    return Boolean(found);
  }
}
