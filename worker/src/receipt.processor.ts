import {
  COMPLETED_PROGRESS,
  progressOf,
  receiptChanges,
  sniffMimeType,
  USER_MESSAGES,
  type PipelineStep,
  type ReceiptJob,
} from '@receipts/common';
import {
  isServiceUnavailable,
  metrics,
  ownerRoom,
  QuotaService,
  receiptColumns,
  refreshSameReceiptFlags,
  refundAndNotify,
  schema,
  toReceiptView,
  type Database,
  type FileStore,
  type Logger,
  type UploadEventBus,
  type UploadRow,
} from '@receipts/infra';
import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OcrEngines } from './ocr/create-ocr-engine.js';
import { UnreadableFileError } from './ocr/ocr-engine.js';
import { runPipeline } from './receipt.pipeline.js';

/** Why a job's AbortSignal fired: the user cancelled, or this worker is shutting down. */
export const ABORT_REASONS = { cancel: 'cancelled by user', shutdown: 'worker shutting down' } as const;

/** While PostgreSQL or Redis is unreachable a job waits this long between tries, spending no attempt. */
const UNAVAILABLE_RETRY_MS = 3_000;

export interface ProcessorDeps {
  db: Database;
  files: FileStore;
  /** The upload's engine is the one a re-extraction asked for, else the configured default. */
  engines: OcrEngines;
  bus: UploadEventBus;
  log: Logger;
  /** Sends the subscriber's "receipts ready" e-mail when a batch is done. */
  notifyBatchDone: (userId: string | null) => Promise<void>;
}

const { uploads, receipts, receiptEdits } = schema;

/**
 * Processes one upload. Idempotent per upload id: a job re-run after a crash starts over,
 * never writes a second receipt, and leaves an upload that already ended untouched.
 */
export function createReceiptProcessor(deps: ProcessorDeps) {
  const { db, files, engines, bus, log, notifyBatchDone } = deps;

  return async function processReceipt(job: Job<ReceiptJob>, token?: string, signal?: AbortSignal): Promise<void> {
    const { uploadId, lane, requestId } = job.data;
    const jobLog = log.child({ uploadId, jobId: job.id, requestId, attempt: job.attemptsMade + 1 });
    metrics.jobsActive.inc();
    const started = performance.now();
    let outcome = 'completed';
    try {
      await processOnce(job, jobLog, token, signal);
    } catch (err) {
      if (err instanceof WaitingError) outcome = 'handed_back';
      else if (err instanceof UnrecoverableError) outcome = err.message === ABORT_REASONS.cancel ? 'cancelled' : 'failed';
      else if (isServiceUnavailable(err) && token) {
        // An outage is nobody's fault: the job waits it out instead of spending its attempts
        // (claim, progress and save are all safe to run again).
        outcome = 'waiting_for_services';
        jobLog.warn({ err: (err as Error).message }, 'database or Redis unavailable; the job tries again shortly');
        await job.moveToDelayed(Date.now() + UNAVAILABLE_RETRY_MS, token);
        throw new DelayedError();
      } else outcome = 'retry';
      throw err;
    } finally {
      metrics.jobsActive.dec();
      if (outcome === 'completed') metrics.jobsCompleted.inc({ lane });
      if (outcome === 'failed') metrics.jobsFailed.inc({ lane });
      if (outcome === 'retry') metrics.jobsRetried.inc({ lane });
      if (outcome === 'handed_back') metrics.jobsHandedBack.inc({ reason: 'shutdown' });
      metrics.jobDuration.observe({ lane, outcome }, (performance.now() - started) / 1000);
    }
  };

  async function processOnce(job: Job<ReceiptJob>, jobLog: Logger, token?: string, signal?: AbortSignal): Promise<void> {
    const { uploadId } = job.data;
    // Our own controller follows BullMQ's signal, and also fires when a progress write finds the
    // upload no longer processing (cancelled while the cancel message was still on its way).
    const control = new AbortController();
    const abort = signal ? AbortSignal.any([signal, control.signal]) : control.signal;

    // Claim: only a queued upload, or one a crashed worker left processing, may (re)start.
    const [upload] = await db
      .update(uploads)
      .set({ status: 'processing', progress: 0, step: null, error: null, attempts: sql`${uploads.attempts} + 1`, startedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(uploads.id, uploadId), inArray(uploads.status, ['queued', 'processing'])))
      .returning();
    if (!upload) {
      jobLog.info('upload already ended or was removed; nothing to do');
      return;
    }
    const room = ownerRoom(upload);

    const reportStep = async (step: PipelineStep) => {
      abort.throwIfAborted();
      const progress = progressOf(step);
      const [still] = await db
        .update(uploads)
        .set({ progress, step, updatedAt: new Date() })
        .where(and(eq(uploads.id, uploadId), eq(uploads.status, 'processing')))
        .returning({ id: uploads.id });
      if (!still) {
        control.abort(ABORT_REASONS.cancel);
        abort.throwIfAborted();
      }
      // Live progress only: the database row above is the state, so a Redis hiccup here must
      // not throw away the work done so far.
      await Promise.all([job.updateProgress({ progress, step }), bus.publish(room, 'upload:progress', { id: uploadId, progress, step })]).catch(
        (err: unknown) => jobLog.warn({ err: (err as Error).message }, 'progress not published'),
      );
    };

    try {
      const bytes = await files.read(uploadId).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') throw new UnreadableFileError('The uploaded file is no longer stored. Please upload it again.');
        throw err;
      });
      const mimeType = sniffMimeType(bytes);
      if (!mimeType) throw new UnreadableFileError(USER_MESSAGES.unsupportedFile);
      const result = await runPipeline(
        { bytes, mimeType, currencyCode: upload.currencyCode ?? undefined },
        engines.get(upload.engine),
        reportStep,
        abort,
      );
      await reportStep('saving');
      const stored = await saveReceipt(db, upload, result);
      if (!stored) {
        jobLog.info('upload was cancelled while saving; receipt discarded');
        return;
      }
      // A failure here must not fail the job: the receipt is stored and the upload completed.
      const duplicateOf = await refreshSameReceiptFlags(db, uploadId).catch((err: unknown) => {
        jobLog.warn({ err }, 'duplicate check failed');
        return null;
      });
      await bus
        .publish(room, 'upload:completed', { id: uploadId, receipt: toReceiptView(stored), duplicateOf: duplicateOf ?? undefined })
        .catch((err: unknown) => jobLog.warn({ err: (err as Error).message }, 'completion not published; clients see it on their next sync'));
      metrics.ocrDuration.observe({ engine: upload.engine ?? engines.defaultName }, result.ocrMs / 1000);
      jobLog.info({ ms: Date.now() - upload.startedAt!.getTime(), ocrMs: Math.round(result.ocrMs) }, 'receipt stored');
      await notifyBatchDone(upload.userId).catch((err: unknown) => jobLog.warn({ err }, 'batch notification failed'));
    } catch (err) {
      if (abort.aborted) {
        if (abort.reason === ABORT_REASONS.shutdown && token) {
          // Hand the job back at once rather than waiting for its lock to lapse.
          await db.update(uploads).set({ status: 'queued', progress: 0, step: null, updatedAt: new Date() })
            .where(and(eq(uploads.id, uploadId), eq(uploads.status, 'processing')));
          await job.moveToWait(token);
          throw new WaitingError();
        }
        throw new UnrecoverableError(ABORT_REASONS.cancel);
      }
      // Left to processReceipt, which waits the outage out.
      if (isServiceUnavailable(err)) throw err;
      const isFileFault = err instanceof UnreadableFileError;
      const finalAttempt = isFileFault || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const message = isFileFault ? (err as Error).message : `Processing failed: ${(err as Error).message}`;
      jobLog.warn({ err, finalAttempt }, 'receipt processing failed');
      if (finalAttempt) {
        await recordFailure(db, bus, uploadId, message);
        throw new UnrecoverableError(message);
      }
      throw err;
    }
  }
}

async function saveReceipt(db: Database, upload: UploadRow, result: Awaited<ReturnType<typeof runPipeline>>) {
  const { receipt, fullText, lines, fieldLines, readBy, issues, valid } = result;
  const values = {
    uploadId: upload.id,
    ...receiptColumns(receipt),
    quality: receipt.quality,
    rawText: fullText,
    lines,
    fieldLines,
    readBy: readBy ?? null,
    issues,
    valid,
  };
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(uploads)
      .set({ status: 'completed', progress: COMPLETED_PROGRESS, step: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(uploads.id, upload.id), eq(uploads.status, 'processing')))
      .returning({ id: uploads.id });
    if (!done) return null;
    // A re-extraction replaces the receipt (same id) and records what it changed.
    const [before] = await tx.select().from(receipts).where(eq(receipts.uploadId, upload.id));
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

/**
 * Records a failure the user can read and returns its quota unit (nothing the user can use
 * came of it); safe to call for an upload that already ended.
 */
export async function recordFailure(db: Database, bus: UploadEventBus, uploadId: string, message: string): Promise<void> {
  const [failed] = await db
    .update(uploads)
    .set({ status: 'failed', error: message, step: null, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(uploads.id, uploadId), inArray(uploads.status, ['queued', 'processing'])))
    .returning();
  if (!failed) return;
  await bus.publish(ownerRoom(failed), 'upload:failed', { id: uploadId, error: message });
  await refundAndNotify(new QuotaService(db), bus, failed);
}
