import { createHash, randomUUID } from 'node:crypto';
import { laneFor, quotaExceededMessage, sniffMimeType, USER_MESSAGES, type EngineName, type UploadView } from '@receipts/common';
import {
  cancelChannel,
  duplicateOriginal,
  enqueueReceiptJob,
  findSameFile,
  metrics,
  ownerRoom,
  refundAndNotify,
  schema,
  type QuotaService,
  toDuplicateOf,
  toUploadView,
  type Database,
  type FileStore,
  type Logger,
  type ReceiptQueue,
  type UploadEventBus,
  type UploadRow,
} from '@receipts/infra';
import { TransactionRollbackError, and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { HttpError, notFound } from './http-error.js';
import type { Owner } from './session.js';

const { uploads, receipts } = schema;

export interface UploadServiceDeps {
  db: Database;
  files: FileStore;
  queue: ReceiptQueue;
  bus: UploadEventBus;
  quota: QuotaService;
  /** Fails fast when Redis is down (no offline queue). */
  producer: Redis;
  prefix: string;
  jobAttempts: number;
  /** Engines this deployment can run (Document AI only when configured); the local one when not given. */
  engines?: readonly EngineName[];
  log: Logger;
}

export interface IncomingFile {
  originalname: string;
  buffer: Buffer;
}

/** The caller's uploads; every query of another owner's data goes through this. */
export function ownedBy(owner: Owner): SQL {
  if (owner.userId) return eq(uploads.userId, owner.userId);
  if (owner.anonId) return and(eq(uploads.anonId, owner.anonId), isNull(uploads.userId))!;
  throw new HttpError(401, 'UNAUTHENTICATED', 'Your session has no identity yet. Reload the page and try again.');
}

export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const unavailable = () =>
  new HttpError(503, 'SERVICE_UNAVAILABLE', 'The processing queue is unavailable right now. Please try again in a minute.');

/** Uploads: the one module where a file becomes a stored upload and a queued job. */
export class UploadService {
  constructor(private readonly deps: UploadServiceDeps) {}

  /**
   * Checks the file, takes a quota unit, stores the file, records the upload and enqueues its
   * job. The unit and the row are written in one transaction; anything failing after that
   * withdraws the upload and returns the unit.
   */
  async create(owner: Owner, file: IncomingFile, currencyCode?: string, context: { requestId?: string } = {}): Promise<UploadRow> {
    const { db, files, queue, producer, jobAttempts, quota, bus } = this.deps;
    if (file.buffer.length === 0) throw new HttpError(400, 'FILE_EMPTY', 'The file is empty.');
    const mimeType = sniffMimeType(file.buffer);
    if (!mimeType) {
      throw new HttpError(415, 'UNSUPPORTED_FILE_TYPE', USER_MESSAGES.unsupportedFile);
    }
    // Refuse before writing anything when the queue cannot take the job.
    await producer.ping().catch(() => {
      throw unavailable();
    });
    const policy = await quota.policy(owner);
    const lane = laneFor(policy);
    const id = randomUUID();
    await files.put(id, file.buffer);
    const row = await db.transaction(async (tx) => {
      const charges = await quota.reserve(tx, policy);
      if (!charges) {
        tx.rollback();
        return null;
      }
      const sha256 = createHash('sha256').update(file.buffer).digest('hex');
      // The same file again is flagged for the owner to keep or delete, never dropped.
      const sameFile = await findSameFile(tx, owner, sha256);
      const [inserted] = await tx
        .insert(uploads)
        .values({
          id,
          userId: owner.userId,
          anonId: owner.userId ? null : owner.anonId,
          filename: file.originalname || 'unknown',
          mimeType,
          size: file.buffer.length,
          sha256,
          currencyCode: currencyCode ?? null,
          lane,
          quotaCharges: charges,
          duplicateOf: sameFile?.id ?? null,
          duplicateReason: sameFile ? 'same-file' : null,
        })
        .returning();
      return inserted!;
    }).catch(async (err: unknown) => {
      await files.delete(id);
      if (err instanceof TransactionRollbackError) {
        throw new HttpError(429, 'QUOTA_EXCEEDED', quotaExceededMessage(policy.signedIn));
      }
      throw err;
    });
    try {
      await enqueueReceiptJob(queue, { uploadId: id, lane, requestId: context.requestId }, jobAttempts);
    } catch (err) {
      this.deps.log.warn({ err, uploadId: id, requestId: context.requestId }, 'enqueue failed; upload withdrawn');
      await quota.refund(id);
      await db.delete(uploads).where(eq(uploads.id, id));
      await files.delete(id);
      throw unavailable();
    }
    metrics.uploadSize.observe({ mime_type: mimeType }, file.buffer.length);
    this.deps.log.info({ uploadId: id, requestId: context.requestId, lane, mimeType, size: file.buffer.length }, 'upload queued');
    await bus.publish(ownerRoom(row!), 'quota:updated', await quota.view(owner)).catch(() => undefined);
    return row!;
  }

  async list(owner: Owner): Promise<UploadView[]> {
    const rows = await this.deps.db
      .select({ upload: uploads, receipt: receipts, originalFilename: duplicateOriginal.filename })
      .from(uploads)
      .leftJoin(receipts, eq(receipts.uploadId, uploads.id))
      .leftJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf))
      .where(ownedBy(owner))
      .orderBy(desc(uploads.createdAt))
      .limit(500);
    return rows.map((r) => toUploadView(r.upload, r.receipt, toDuplicateOf(r.upload, r.originalFilename)));
  }

  /** The caller's upload; someone else's is reported as not found, never as forbidden. */
  async get(owner: Owner, id: string): Promise<UploadView> {
    if (!isUuid(id)) throw notFound('Upload not found');
    const [row] = await this.deps.db
      .select({ upload: uploads, receipt: receipts, originalFilename: duplicateOriginal.filename })
      .from(uploads)
      .leftJoin(receipts, eq(receipts.uploadId, uploads.id))
      .leftJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf))
      .where(and(eq(uploads.id, id), ownedBy(owner)));
    if (!row) throw notFound('Upload not found');
    return toUploadView(row.upload, row.receipt, toDuplicateOf(row.upload, row.originalFilename));
  }

  /**
   * Cancels a queued or processing upload: a waiting job leaves the queue; an active one is
   * aborted by the worker holding it. Marking the row first means a worker that finishes in
   * the meantime cannot overwrite the cancellation. A cancelled re-extraction goes back to the
   * receipt it had.
   */
  async cancel(owner: Owner, id: string): Promise<UploadView> {
    const { db, queue, producer, bus, prefix, quota } = this.deps;
    const current = await this.get(owner, id);
    const [cancelled] = await db
      .update(uploads)
      .set({
        status: sql`CASE WHEN EXISTS (SELECT 1 FROM ${receipts} WHERE ${receipts.uploadId} = ${uploads.id}) THEN 'completed' ELSE 'cancelled' END`,
        progress: sql`CASE WHEN EXISTS (SELECT 1 FROM ${receipts} WHERE ${receipts.uploadId} = ${uploads.id}) THEN 100 ELSE ${uploads.progress} END`,
        step: null,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(uploads.id, id), inArray(uploads.status, ['queued', 'processing'])))
      .returning();
    if (!cancelled) {
      throw new HttpError(409, 'NOT_CANCELLABLE', `This upload has already ${current.status === 'completed' ? 'completed' : 'ended'}.`);
    }
    const job = await queue.getJob(id).catch(() => undefined);
    // remove() refuses a job a worker holds; that one is aborted through its worker.
    const removed = job ? await job.remove().then(() => true, () => false) : true;
    if (!removed) await producer.publish(cancelChannel(prefix), id).catch(() => undefined);
    await refundAndNotify(quota, bus, cancelled);
    const view = await this.get(owner, id);
    if (view.receipt) {
      await bus.publish(ownerRoom(cancelled), 'upload:completed', { id, receipt: view.receipt, duplicateOf: view.duplicateOf }).catch(() => undefined);
    } else {
      await bus.publish(ownerRoom(cancelled), 'upload:cancelled', { id }).catch(() => undefined);
    }
    return view;
  }

  /**
   * Runs extraction again on a stored original, through the same queue, lane and live progress
   * as an upload. It costs a quota unit like any extraction (returned if it fails or is
   * cancelled); the earlier receipt stays until the new one replaces it.
   */
  async reextract(owner: Owner, id: string, engine?: EngineName): Promise<UploadRow> {
    const { db, queue, producer, quota, bus, jobAttempts } = this.deps;
    if (engine && !(this.deps.engines ?? ['local']).includes(engine)) {
      throw new HttpError(400, 'VALIDATION_FAILED', USER_MESSAGES.documentAiNotConfigured);
    }
    await producer.ping().catch(() => {
      throw unavailable();
    });
    const policy = await quota.policy(owner);
    const lane = laneFor(policy);
    let previous: UploadRow | undefined;
    const row = await db
      .transaction(async (tx) => {
        [previous] = await tx.select().from(uploads).where(and(eq(uploads.id, id), ownedBy(owner))).for('update');
        if (!previous) throw notFound('Receipt not found');
        if (previous.status === 'queued' || previous.status === 'processing') {
          throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted right now.');
        }
        if (previous.originalDeletedAt) {
          throw new HttpError(409, 'CONFLICT', 'The original file was deleted after 90 days, so this receipt cannot be extracted again.');
        }
        const charges = await quota.reserve(tx, policy);
        if (!charges) tx.rollback();
        const [queued] = await tx
          .update(uploads)
          .set({
            status: 'queued',
            progress: 0,
            step: null,
            error: null,
            engine: engine ?? null,
            lane,
            quotaCharges: charges!,
            quotaRefunded: false,
            startedAt: null,
            finishedAt: null,
            updatedAt: new Date(),
          })
          .where(eq(uploads.id, id))
          .returning();
        return queued!;
      })
      .catch((err: unknown) => {
        if (err instanceof TransactionRollbackError) throw new HttpError(429, 'QUOTA_EXCEEDED', quotaExceededMessage(policy.signedIn));
        throw err;
      });
    try {
      // The finished job of the last run still holds this id in BullMQ; it goes first.
      await (await queue.getJob(id))?.remove();
      await enqueueReceiptJob(queue, { uploadId: id, lane }, jobAttempts);
    } catch (err) {
      this.deps.log.warn({ err, uploadId: id }, 're-extraction could not be queued; upload restored');
      await quota.refund(id);
      const { status, progress, error, engine: engineBefore, finishedAt } = previous!;
      await db.update(uploads).set({ status, progress, error, engine: engineBefore, finishedAt, updatedAt: new Date() }).where(eq(uploads.id, id));
      throw unavailable();
    }
    await bus.publish(ownerRoom(row), 'quota:updated', await quota.view(owner)).catch(() => undefined);
    return row;
  }

  /**
   * Deletes an upload and everything extracted from it (an active one is cancelled first, its
   * unit returned). The original file goes too.
   */
  async remove(owner: Owner, id: string): Promise<void> {
    const { db, files } = this.deps;
    const current = await this.get(owner, id);
    if (current.status === 'queued' || current.status === 'processing') await this.cancel(owner, id).catch(() => undefined);
    const [deleted] = await db.delete(uploads).where(and(eq(uploads.id, id), ownedBy(owner))).returning({ id: uploads.id });
    if (!deleted) throw notFound('Upload not found');
    await files.delete(id);
  }

  /** Stops every queued or processing upload of the owner (account deletion): jobs leave the queue or are aborted. */
  async stopAll(owner: Owner): Promise<void> {
    const { db, queue, producer, prefix } = this.deps;
    const stopped = await db
      .update(uploads)
      .set({ status: 'cancelled', step: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(ownedBy(owner), inArray(uploads.status, ['queued', 'processing'])))
      .returning({ id: uploads.id });
    for (const { id } of stopped) {
      const job = await queue.getJob(id).catch(() => undefined);
      const removed = job ? await job.remove().then(() => true, () => false) : true;
      if (!removed) await producer.publish(cancelChannel(prefix), id).catch(() => undefined);
    }
  }

  /** Deletes stored originals whose rows are already gone. */
  async deleteOriginals(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.deps.files.delete(id);
  }

  /** The owner keeps an upload flagged as a possible duplicate: the flag goes and is not set again. */
  async keep(owner: Owner, id: string): Promise<UploadView> {
    if (!isUuid(id)) throw notFound('Upload not found');
    const [kept] = await this.deps.db
      .update(uploads)
      .set({ duplicateOf: null, duplicateReason: null, duplicateKept: true, updatedAt: new Date() })
      .where(and(eq(uploads.id, id), ownedBy(owner)))
      .returning({ id: uploads.id });
    if (!kept) throw notFound('Upload not found');
    return this.get(owner, id);
  }
}
