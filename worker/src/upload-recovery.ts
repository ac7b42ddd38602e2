import { enqueueReceiptJob, schema, type Database, type ReceiptQueue, type UploadEventBus } from '@receipts/infra';
import { and, asc, eq, lt, or } from 'drizzle-orm';
import { recordFailure } from './receipt.processor.js';

const { uploads } = schema;
const BATCH = 200;

export interface RecoveryOptions {
  /** A queued upload untouched this long is checked against the queue. */
  queuedAfterMs: number;
  /**
   * A processing upload writes its row at every step; one silent this long has lost its worker
   * (or its job). Longer than any single step, so a live job is never taken twice.
   */
  processingAfterMs: number;
  jobAttempts: number;
}

export interface RecoveryResult {
  requeued: number;
  failed: number;
}

/**
 * PostgreSQL is the record of every upload; Redis only carries the work. When the two disagree —
 * Redis restarted without persistence, or a job failed while its failure could not be written —
 * the upload is put right: its job is queued again (same id, so never twice), or its recorded
 * failure is written now (with the quota unit back). Safe to run from every worker at once.
 */
export async function recoverLostUploads(
  db: Database,
  queue: ReceiptQueue,
  bus: UploadEventBus,
  options: RecoveryOptions,
  now = Date.now(),
): Promise<RecoveryResult> {
  const stale = await db
    .select({ id: uploads.id, lane: uploads.lane })
    .from(uploads)
    .where(
      or(
        and(eq(uploads.status, 'queued'), lt(uploads.updatedAt, new Date(now - options.queuedAfterMs))),
        and(eq(uploads.status, 'processing'), lt(uploads.updatedAt, new Date(now - options.processingAfterMs))),
      ),
    )
    .orderBy(asc(uploads.createdAt))
    .limit(BATCH);
  const result: RecoveryResult = { requeued: 0, failed: 0 };
  for (const upload of stale) {
    const job = await queue.getJob(upload.id);
    const state = job ? await job.getState() : 'missing';
    if (state === 'failed') {
      await recordFailure(db, bus, upload.id, `Processing failed: ${job!.failedReason}`);
      result.failed += 1;
      continue;
    }
    // Waiting, delayed or active jobs are on their way; anything else has lost its work.
    if (state !== 'missing' && state !== 'completed' && state !== 'unknown') continue;
    if (job) await job.remove();
    await enqueueReceiptJob(queue, { uploadId: upload.id, lane: upload.lane }, options.jobAttempts);
    result.requeued += 1;
  }
  return result;
}
