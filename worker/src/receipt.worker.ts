import { LANE_PRIORITY, processingFailedMessage, RECEIPT_JOB, RECEIPT_QUEUE, type ReceiptJob } from '@receipts/common';
import {
  BillingRepository,
  createJobWorker,
  createReceiptQueue,
  createRedis,
  initMetrics,
  metrics,
  onCancelRequests,
  QuotaService,
  ReceiptJobs,
  MerchantRuleRepository,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  type Config,
  type Database,
  type FileStore,
  type Logger,
  type Mailer,
  type UploadEventBus,
} from '@receipts/infra';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { notifyIfBatchDone } from './notifications/batch-notification.js';
import { configureDecoding } from './document/decode.sandbox.js';
import { createOcrEnginesFromConfig } from './pipeline/create-ocr-engine.js';
import { PipelineThread } from './pipeline/pipeline-thread.runner.js';
import { inProcessPipeline, type PipelineRunner } from './pipeline/pipeline.runner.js';
import { promoteStarvingStandardJobs } from './lane-aging.js';
import { ABORT_REASONS, createReceiptProcessor, recordFailure } from './receipt.processor.js';
import { startRetentionWorker } from './retention/retention.worker.js';
import { recoverLostUploads } from './upload-recovery.js';

export interface ReceiptWorkerDeps {
  config: Config;
  db: Database;
  files: FileStore;
  bus: UploadEventBus;
  mailer: Mailer;
  publisher: Redis;
  log: Logger;
}

export interface ReceiptWorkerOptions {
  /**
   * Runs the receipts' pipelines on a thread of their own, below the api's priority: for a worker
   * sharing its process with an api (the embedded mode), whose event loop answers HTTP. A
   * worker-only process runs them on its own event loop, which has nothing else to answer.
   */
  pipelineThread?: boolean;
}

export interface ReceiptWorkerHandle {
  worker: Worker<ReceiptJob>;
  /** Finishes active jobs for up to `timeoutMs`, then hands the rest back to the queue. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Jobs held beyond the OCR slots (WORKER_CONCURRENCY): while a job claims its upload, reads its
 * file or saves its receipt and pictures (about 50 ms of database and disk a receipt), the next one
 * already has its pages ready for the slot it frees, so the cores are not idle between jobs.
 */
export const JOBS_AHEAD = 1;

export async function startReceiptWorker(deps: ReceiptWorkerDeps, options: ReceiptWorkerOptions = {}): Promise<ReceiptWorkerHandle> {
  const { config, db, files, bus, log, mailer, publisher } = deps;
  const onThread = options.pipelineThread ?? false;
  const pipeline = await startPipeline(config, log, onThread);

  const uploads = new UploadRepository(db);
  const uploadReads = new UploadReadRepository(db);
  const quota = new QuotaService(db, config.ADMIN_EMAILS);
  const processReceipt = createReceiptProcessor({
    uploads,
    uploadReads,
    duplicates: new UploadDuplicateRepository(db),
    quota,
    rules: new MerchantRuleRepository(db),
    files,
    pipeline,
    bus,
    log,
    jobTimeoutMs: config.JOB_TIMEOUT_MS,
    notifyBatchDone: (userId) =>
      notifyIfBatchDone({ billing: new BillingRepository(db), uploadReads, mailer, redis: publisher, prefix: config.QUEUE_PREFIX, publicUrl: config.publicUrl, log }, userId),
  });
  const connection = createRedis(config.REDIS_URL);
  const worker = createJobWorker(RECEIPT_QUEUE, { [RECEIPT_JOB]: processReceipt }, {
    connection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY + JOBS_AHEAD,
    lockDuration: config.JOB_LOCK_MS,
    stalledInterval: config.STALLED_CHECK_MS,
    maxStalledCount: 2,
    log,
  });
  // A lock that could not be renewed has lapsed (an event loop starved past JOB_LOCK_MS): the
  // stalled-job check hands the job out again, so this run stops instead of taking a slot twice.
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const id of jobIds) {
      if (worker.cancelJob(id, ABORT_REASONS.lockLost)) log.warn({ uploadId: id }, 'job lock lapsed; this run stops and the job runs again');
    }
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    log.warn({ uploadId: job.data.uploadId, err: err.message }, 'job failed');
    // The processor records failures itself; this catches the ones it could not reach
    // (stalled too often, lock lost), so no upload stays "processing" forever.
    if (job.finishedOn && err.message !== ABORT_REASONS.cancel && err.message !== ABORT_REASONS.lockLost) {
      recordFailure({ uploads, quota, bus }, job.data.uploadId, processingFailedMessage(job.data.requestId ?? job.data.uploadId)).catch((e: unknown) =>
        log.error({ err: e }, 'could not record failure'),
      );
    }
  });

  // Cancel requests reach every worker; only the one holding the job can abort it.
  const subscriber = createRedis(config.REDIS_URL);
  subscriber.on('error', (err) => log.warn({ err: err.message }, 'cancel subscriber error'));
  await onCancelRequests(subscriber, config.QUEUE_PREFIX, (uploadId) => {
    if (worker.cancelJob(uploadId, ABORT_REASONS.cancel)) log.info({ uploadId }, 'active job cancelled');
  });

  const queueConnection = createRedis(config.REDIS_URL);
  const jobs = new ReceiptJobs(createReceiptQueue(queueConnection, config.QUEUE_PREFIX, log), publisher, {
    prefix: config.QUEUE_PREFIX,
    attempts: config.JOB_ATTEMPTS,
    log,
  });
  initMetrics({ role: config.ROLES.join('+'), queue: jobs.queue });
  const aging = setInterval(() => {
    promoteStarvingStandardJobs(jobs.queue, config.STANDARD_MAX_WAIT_MS).then(
      (n) => n > 0 && log.info({ promoted: n }, 'standard jobs promoted after waiting too long'),
      (err: unknown) => log.warn({ err }, 'lane aging failed'),
    );
  }, Math.min(10_000, config.STANDARD_MAX_WAIT_MS / 2));

  const recovery = setInterval(() => {
    recoverLostUploads({ uploads, uploadReads, quota, bus, jobs }, {
      queuedAfterMs: config.RECOVERY_SWEEP_MS,
      processingAfterMs: Math.max(config.RECOVERY_SWEEP_MS, 2 * config.JOB_LOCK_MS),
    }).then(
      (r) => {
        if (r.requeued === 0 && r.failed === 0) return;
        metrics.jobsHandedBack.inc({ reason: 'recovered' }, r.requeued);
        log.warn(r, 'uploads the queue had lost were put right');
      },
      (err: unknown) => log.warn({ err: (err as Error).message }, 'recovery sweep failed; tries again'),
    );
  }, config.RECOVERY_SWEEP_MS);

  const retention = await startRetentionWorker({ config, uploads, uploadReads, files, log });

  log.info({ concurrency: config.WORKER_CONCURRENCY, jobsAhead: JOBS_AHEAD, engine: pipeline.defaultEngine, tesseract: pipeline.tesseract, pipelineThread: onThread, priorities: LANE_PRIORITY }, 'worker started');

  return {
    worker,
    async close(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      clearInterval(aging);
      clearInterval(recovery);
      const closing = Promise.all([worker.close(), retention.close()]);
      const timer = setTimeout(() => worker.cancelAllJobs(ABORT_REASONS.shutdown), timeoutMs);
      await closing;
      clearTimeout(timer);
      await Promise.allSettled([subscriber.quit(), jobs.close(), pipeline.close()]);
      // Closing: a connection already gone needs no quit.
      await Promise.allSettled([connection.quit(), queueConnection.quit()]);
    },
  };
}

async function startPipeline(config: Config, log: Logger, onThread: boolean): Promise<PipelineRunner> {
  if (onThread) return PipelineThread.start(config, log);
  configureDecoding(config, log);
  return inProcessPipeline(createOcrEnginesFromConfig(config, config.WORKER_CONCURRENCY, log));
}
