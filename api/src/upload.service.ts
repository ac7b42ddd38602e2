import { createHash, randomUUID } from 'node:crypto';
import { laneFor, quotaExceededMessage, sniffMimeType, type UploadView } from '@receipts/common';
import {
  cancelChannel,
  enqueueReceiptJob,
  ownerRoom,
  refundAndNotify,
  schema,
  type QuotaService,
  toUploadView,
  type Database,
  type FileStore,
  type Logger,
  type ReceiptQueue,
  type UploadEventBus,
  type UploadRow,
} from '@receipts/infra';
import { TransactionRollbackError, and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
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
  log: Logger;
}

export interface IncomingFile {
  originalname: string;
  buffer: Buffer;
}

function ownedBy(owner: Owner): SQL {
  if (owner.userId) return eq(uploads.userId, owner.userId);
  if (owner.anonId) return and(eq(uploads.anonId, owner.anonId), isNull(uploads.userId))!;
  throw new HttpError(401, 'UNAUTHENTICATED', 'Your session has no identity yet. Reload the page and try again.');
}

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
  async create(owner: Owner, file: IncomingFile, currencyCode?: string): Promise<UploadRow> {
    const { db, files, queue, producer, jobAttempts, quota, bus } = this.deps;
    if (file.buffer.length === 0) throw new HttpError(400, 'FILE_EMPTY', 'The file is empty.');
    const mimeType = sniffMimeType(file.buffer);
    if (!mimeType) {
      throw new HttpError(415, 'UNSUPPORTED_FILE_TYPE', 'This file is not a JPG, PNG, WebP, HEIC or PDF file.');
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
      const [inserted] = await tx
        .insert(uploads)
        .values({
          id,
          userId: owner.userId,
          anonId: owner.userId ? null : owner.anonId,
          filename: file.originalname || 'unknown',
          mimeType,
          size: file.buffer.length,
          sha256: createHash('sha256').update(file.buffer).digest('hex'),
          currencyCode: currencyCode ?? null,
          lane,
          quotaCharges: charges,
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
      await enqueueReceiptJob(queue, { uploadId: id, lane }, jobAttempts);
    } catch (err) {
      this.deps.log.warn({ err, uploadId: id }, 'enqueue failed; upload withdrawn');
      await quota.refund(id);
      await db.delete(uploads).where(eq(uploads.id, id));
      await files.delete(id);
      throw unavailable();
    }
    await bus.publish(ownerRoom(row!), 'quota:updated', await quota.view(owner)).catch(() => undefined);
    return row!;
  }

  async list(owner: Owner): Promise<UploadView[]> {
    const rows = await this.deps.db
      .select()
      .from(uploads)
      .leftJoin(receipts, eq(receipts.uploadId, uploads.id))
      .where(ownedBy(owner))
      .orderBy(desc(uploads.createdAt))
      .limit(500);
    return rows.map((r) => toUploadView(r.uploads, r.receipts));
  }

  /** The caller's upload; someone else's is reported as not found, never as forbidden. */
  async get(owner: Owner, id: string): Promise<UploadView> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Upload not found');
    const [row] = await this.deps.db
      .select()
      .from(uploads)
      .leftJoin(receipts, eq(receipts.uploadId, uploads.id))
      .where(and(eq(uploads.id, id), ownedBy(owner)));
    if (!row) throw notFound('Upload not found');
    return toUploadView(row.uploads, row.receipts);
  }

  /**
   * Cancels a queued or processing upload: a waiting job leaves the queue; an active one is
   * aborted by the worker holding it. Marking the row first means a worker that finishes in
   * the meantime cannot overwrite the cancellation.
   */
  async cancel(owner: Owner, id: string): Promise<UploadView> {
    const { db, queue, producer, bus, prefix, quota } = this.deps;
    const current = await this.get(owner, id);
    const [cancelled] = await db
      .update(uploads)
      .set({ status: 'cancelled', step: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(uploads.id, id), inArray(uploads.status, ['queued', 'processing'])))
      .returning();
    if (!cancelled) {
      throw new HttpError(409, 'NOT_CANCELLABLE', `This upload has already ${current.status === 'completed' ? 'completed' : 'ended'}.`);
    }
    const job = await queue.getJob(id).catch(() => undefined);
    // remove() refuses a job a worker holds; that one is aborted through its worker.
    const removed = job ? await job.remove().then(() => true, () => false) : true;
    if (!removed) await producer.publish(cancelChannel(prefix), id).catch(() => undefined);
    await bus.publish(ownerRoom(cancelled), 'upload:cancelled', { id }).catch(() => undefined);
    await refundAndNotify(quota, bus, cancelled);
    return toUploadView(cancelled);
  }
}
