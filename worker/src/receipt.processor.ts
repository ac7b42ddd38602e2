import { processingFailedMessage, progressOf, sniffMimeType, USER_MESSAGES, type PipelineStep, type ReceiptJob } from '@receipts/common';
import {
  isServiceUnavailable,
  metrics,
  notifyQuota,
  ownerRoom,
  receiptColumns,
  StoredFileMissingError,
  toReceiptView,
  type ExtractedReceipt,
  type FileStore,
  type Logger,
  type MerchantRuleRepository,
  type QuotaService,
  type UploadDuplicateRepository,
  type UploadEventBus,
  type UploadReadRepository,
  type UploadRepository,
} from '@receipts/infra';
import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { pagePicture } from './document/page-picture.js';
import { UnreadableFileError } from './page/unreadable-file.error.js';
import { EngineError } from './ocr/ocr-engine.js';
import type { PipelineRunner } from './pipeline/pipeline.runner.js';
import type { PipelineResult } from './pipeline/receipt.pipeline.js';

/**
 * Why a job's AbortSignal fired: the user cancelled, this worker is shutting down, its lock
 * lapsed (the stalled-job check gives the job to a worker again, so this run is only waste), or
 * the run passed JOB_TIMEOUT_MS (a failed attempt, tried again while attempts remain).
 */
export const ABORT_REASONS = {
  cancel: 'cancelled by user',
  shutdown: 'worker shutting down',
  lockLost: 'job lock lost',
  timeout: 'job ran past its time',
} as const;

/** A run given up because its lock lapsed: the job runs again from the queue, nothing is recorded. */
class LockLostError extends Error {
  override name = 'LockLostError';
  constructor() {
    super(ABORT_REASONS.lockLost);
  }
}

/** While PostgreSQL or Redis is unreachable a job waits this long between tries, spending no attempt. */
const UNAVAILABLE_RETRY_MS = 3_000;

/** What recording a failure needs: the upload's state, its owner's quota figures, the live events. */
export interface FailureDeps {
  uploads: UploadRepository;
  quota: QuotaService;
  bus: UploadEventBus;
}

export interface ProcessorDeps extends FailureDeps {
  uploadReads: Pick<UploadReadRepository, 'exists'>;
  duplicates: Pick<UploadDuplicateRepository, 'refreshDuplicateFlags'>;
  files: FileStore;
  /** The owner's learned rules, applied to the receipt before it is written. */
  rules: Pick<MerchantRuleRepository, 'forUser'>;
  /** Runs the pipeline with the upload's engine: the one a re-extraction asked for, else the configured default. */
  pipeline: PipelineRunner;
  log: Logger;
  /** Sends the subscriber's "receipts ready" e-mail when a batch is done. */
  notifyBatchDone: (userId: string | null) => Promise<void>;
  /**
   * The most one run of a job may take. Every step has its own bound; this one catches what no
   * step foresaw, so no upload stays "processing" while its lock is kept alive.
   */
  jobTimeoutMs: number;
}

/**
 * Processes one upload. Idempotent per upload id: a job re-run after a crash starts over,
 * never writes a second receipt, and leaves an upload that already ended untouched.
 */
export function createReceiptProcessor(deps: ProcessorDeps) {
  const { uploads, uploadReads, duplicates, files, rules, pipeline, bus, log, notifyBatchDone, jobTimeoutMs } = deps;

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
      else if (err instanceof LockLostError) outcome = 'lock_lost';
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
      if (outcome === 'lock_lost') metrics.jobsHandedBack.inc({ reason: 'lock_lost' });
      metrics.jobDuration.observe({ lane, outcome }, (performance.now() - started) / 1000);
    }
  };

  async function processOnce(job: Job<ReceiptJob>, jobLog: Logger, token?: string, signal?: AbortSignal): Promise<void> {
    const { uploadId, requestId } = job.data;
    // Our own controller follows BullMQ's signal, and also fires when a progress write finds the
    // upload no longer processing (cancelled while the cancel message was still on its way).
    const control = new AbortController();
    const abort = signal ? AbortSignal.any([signal, control.signal]) : control.signal;

    // Claim: only a queued upload, or one a crashed worker left processing, may (re)start.
    const upload = await uploads.claim(uploadId);
    if (!upload) {
      // Deleted through another api process in the moment between its answer and its file's
      // store: that process's delete found no file, the file landed after it, and only this job
      // still knows of it.
      if (!(await uploadReads.exists(uploadId))) {
        await files.delete(uploadId);
        jobLog.info('upload was deleted; an original stored after the deletion is deleted too');
        return;
      }
      jobLog.info('upload already ended; nothing to do');
      return;
    }
    const room = ownerRoom(upload);

    // Where a step's progress is written and emitted. A step's write runs while the next step
    // works (the OCR slot does not wait for the database and Redis eight times a receipt); the
    // next step, or the save, waits for it first, so writes stay in order and a cancellation or
    // an outage it finds stops the run one step later at most.
    let written: Promise<void> = Promise.resolve();
    const writeStep = async (step: PipelineStep) => {
      const progress = progressOf(step);
      if (!(await uploads.progress(uploadId, progress, step))) {
        control.abort(ABORT_REASONS.cancel);
        return;
      }
      // Live progress only: the database row above is the state, so a Redis hiccup here must
      // not throw away the work done so far. (Not also on the BullMQ job: nothing reads it there,
      // and it cost a script and a stream entry in Redis eight times a receipt.)
      await bus
        .publish(room, 'upload:progress', { id: uploadId, progress, step })
        .catch((err: unknown) => jobLog.warn({ err: (err as Error).message }, 'progress not published'));
    };
    const stepWritten = async () => {
      await written;
      abort.throwIfAborted();
    };
    const reportStep = async (step: PipelineStep) => {
      await stepWritten();
      written = writeStep(step);
      // Awaited by the next step; until then a failure must not count as unhandled.
      written.catch(() => undefined);
    };

    const deadline = setTimeout(() => control.abort(ABORT_REASONS.timeout), jobTimeoutMs);
    try {
      const bytes = await files.read(uploadId).catch((err: unknown) => {
        if (err instanceof StoredFileMissingError) throw new UnreadableFileError('The uploaded file is no longer stored. Please upload it again.');
        throw err;
      });
      const mimeType = sniffMimeType(bytes);
      if (!mimeType) throw new UnreadableFileError(USER_MESSAGES.unsupportedFile);
      // An account's corrections become its rules; anonymous visitors have none.
      const userRules = upload.userId ? await rules.forUser(upload.userId) : [];
      const result = await pipeline.run({ bytes, mimeType, currencyCode: upload.currencyCode ?? undefined, rules: userRules }, upload.engine, reportStep, abort);
      await reportStep('saving');
      // The row must say "saving" before it says "completed" (a late progress write would find
      // the upload no longer processing and take it for a cancellation).
      await stepWritten();
      // Before the receipt, so a screen told it is done finds its picture. Without one the review
      // screen shows the fields alone: not a reason to fail the receipt.
      await storePictures(files, uploadId, result.pictures).catch((err: unknown) => jobLog.warn({ err }, 'page pictures not stored'));
      const stored = await uploads.complete(uploadId, extractedReceipt(result));
      if (!stored) {
        jobLog.info('upload was cancelled while saving; receipt discarded');
        return;
      }
      // A failure here must not fail the job: the receipt is stored and the upload completed.
      const duplicateOf = await duplicates.refreshDuplicateFlags(uploadId).catch((err: unknown) => {
        jobLog.warn({ err }, 'duplicate check failed');
        return null;
      });
      await bus
        .publish(room, 'upload:completed', { id: uploadId, receipt: toReceiptView(stored), duplicateOf: duplicateOf ?? undefined })
        .catch((err: unknown) => jobLog.warn({ err: (err as Error).message }, 'completion not published; clients see it on their next sync'));
      metrics.ocrDuration.observe({ engine: upload.engine ?? pipeline.defaultEngine }, result.ocrMs / 1000);
      jobLog.info({ ms: Date.now() - upload.startedAt!.getTime(), ocrMs: Math.round(result.ocrMs), rulesApplied: result.rulesApplied }, 'receipt stored');
      await notifyBatchDone(upload.userId).catch((err: unknown) => jobLog.warn({ err }, 'batch notification failed'));
    } catch (caught) {
      // A step's write still running lands before the outcome is recorded. Its own failure is not
      // lost: a cancellation it found is in `abort`, and an outage fails the recording below too.
      await written.catch(() => undefined);
      const timedOut = abort.aborted && abort.reason === ABORT_REASONS.timeout;
      if (abort.aborted && !timedOut) {
        // The upload stays as it is: the run that has the job now claims it again.
        if (abort.reason === ABORT_REASONS.lockLost) throw new LockLostError();
        if (abort.reason === ABORT_REASONS.shutdown && token) {
          // Hand the job back at once rather than waiting for its lock to lapse.
          await uploads.handBack(uploadId);
          await job.moveToWait(token);
          throw new WaitingError();
        }
        throw new UnrecoverableError(ABORT_REASONS.cancel);
      }
      // A run past its time is a failed attempt like any other (the steps it was in say why, in the log).
      const err = timedOut ? new Error(`${ABORT_REASONS.timeout} (${jobTimeoutMs} ms)`, { cause: caught }) : caught;
      // Left to processReceipt, which waits the outage out.
      if (isServiceUnavailable(err)) throw err;
      const isFileFault = err instanceof UnreadableFileError;
      const engineFault = err instanceof EngineError ? err : null;
      const finalAttempt = isFileFault || engineFault?.final === true || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      // A file fault is the user's to fix and says so, and so does an engine's failure (a model
      // that did not answer); anything else (a database error with its SQL, a crash) stays in the
      // log, and the user gets a reference to it.
      const message = isFileFault || engineFault ? (err as Error).message : processingFailedMessage(requestId ?? uploadId);
      jobLog.warn({ err, finalAttempt }, 'receipt processing failed');
      if (finalAttempt) {
        await recordFailure(deps, uploadId, message);
        throw new UnrecoverableError(message);
      }
      throw err;
    } finally {
      clearTimeout(deadline);
    }
  }
}

/** The pictures of the pages the review screen shows, one at a time (a page's PNG can be tens of megabytes decoded). */
async function storePictures(files: FileStore, uploadId: string, pngs: readonly Buffer[]): Promise<void> {
  const pictures: Buffer[] = [];
  for (const png of pngs) pictures.push(await pagePicture(png));
  await files.putPages(uploadId, pictures);
}

/** The receipt row a pipeline result makes. */
function extractedReceipt(result: PipelineResult): ExtractedReceipt {
  const { receipt, merchantRead, fullText, lines, fieldLines, readBy, pageTurns, issues, valid } = result;
  return {
    ...receiptColumns(receipt),
    merchantRead: merchantRead ?? null,
    quality: receipt.quality,
    rawText: fullText,
    lines,
    fieldLines,
    readBy: readBy ?? null,
    pageTurns,
    issues,
    valid,
  };
}

/**
 * Records a failure the user can read and returns its quota unit (nothing the user can use
 * came of it); safe to call for an upload that already ended.
 */
export async function recordFailure(deps: FailureDeps, uploadId: string, message: string): Promise<void> {
  const ended = await deps.uploads.fail(uploadId, message);
  if (!ended) return;
  await deps.bus.publish(ownerRoom(ended.upload), 'upload:failed', { id: uploadId, error: message });
  if (ended.refunded) await notifyQuota(deps.quota, deps.bus, ended.upload);
}
