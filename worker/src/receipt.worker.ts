import { LANE_PRIORITY, processingFailedMessage, WEBHOOK_TIMEOUT_MS, webhookAttempts } from '@receipts/common';
import {
  BillingRepository,
  failUpload,
  IdempotencyKeyRepository,
  initMetrics,
  metrics,
  QuotaService,
  MerchantRuleRepository,
  startReceiptConsumer,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  startWebhookConsumer,
  WebhookEvents,
  webhookPolicy,
  WebhookRepository,
  type Config,
  type Database,
  type FileStore,
  type Logger,
  type Mailer,
  type ReceiptWorker,
  type UploadEventBus,
} from '@receipts/infra';
import type { Redis } from 'ioredis';
import { notifyIfBatchDone } from './notifications/batch-notification.js';
import { configureDecoding } from './document/decode.sandbox.js';
import { createOcrEnginesFromConfig } from './pipeline/create-ocr-engine.js';
import { PipelineThread } from './pipeline/pipeline-thread.runner.js';
import { inProcessPipeline, type PipelineRunner } from './pipeline/pipeline.runner.js';
import { createReceiptProcessor } from './receipt.processor.js';
import { startRetentionWorker } from './retention/retention.worker.js';
import { recoverLostUploads } from './upload-recovery.js';
import { createWebhookDeliveryProcessor, requeueOverdueDeliveries } from './webhooks/webhook-delivery.processor.js';

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
  worker: ReceiptWorker;
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
  // Webhook deliveries are sent here too, beside the receipts whose events they carry.
  const webhookRows = new WebhookRepository(db);
  const hooks = startWebhookConsumer({
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
    log,
    handle: createWebhookDeliveryProcessor({
      webhooks: webhookRows,
      mailer,
      policy: webhookPolicy(config),
      schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      publicUrl: config.publicUrl,
      log,
    }),
  });
  const webhooks = new WebhookEvents({ webhooks: webhookRows, jobs: hooks.jobs, attempts: webhookAttempts(config.WEBHOOK_RETRY_SCHEDULE_MS), log });
  const processReceipt = createReceiptProcessor({
    uploads,
    uploadReads,
    duplicates: new UploadDuplicateRepository(db),
    quota,
    webhooks,
    rules: new MerchantRuleRepository(db),
    files,
    pipeline,
    bus,
    log,
    jobTimeoutMs: config.JOB_TIMEOUT_MS,
    notifyBatchDone: (upload) =>
      notifyIfBatchDone({ billing: new BillingRepository(db), uploadReads, mailer, redis: publisher, prefix: config.QUEUE_PREFIX, publicUrl: config.publicUrl, log }, upload),
  });
  const consumer = await startReceiptConsumer({
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY + JOBS_AHEAD,
    lockDuration: config.JOB_LOCK_MS,
    stalledInterval: config.STALLED_CHECK_MS,
    attempts: config.JOB_ATTEMPTS,
    standardMaxWaitMs: config.STANDARD_MAX_WAIT_MS,
    publisher,
    log,
    handle: processReceipt,
    onGivenUp: (job) =>
      void failUpload({ uploads, quota, bus, webhooks }, job.uploadId, processingFailedMessage(job.requestId ?? job.uploadId)).catch((err: unknown) =>
        log.error({ err }, 'could not record failure'),
      ),
  });
  const { jobs } = consumer;
  initMetrics({ role: config.ROLES.join('+'), queue: jobs.queue });

  const recovery = setInterval(() => {
    recoverLostUploads({ uploads, uploadReads, quota, bus, webhooks, jobs }, {
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
    requeueOverdueDeliveries({ webhooks: webhookRows, jobs: hooks.jobs }, config.RECOVERY_SWEEP_MS).then(
      (n) => n > 0 && log.warn({ requeued: n }, 'webhook deliveries the queue had lost were queued again'),
      (err: unknown) => log.warn({ err: (err as Error).message }, 'webhook recovery sweep failed; tries again'),
    );
  }, config.RECOVERY_SWEEP_MS);

  const retention = await startRetentionWorker({ config, uploads, uploadReads, idempotencyKeys: new IdempotencyKeyRepository(db), files, log });

  log.info({ concurrency: config.WORKER_CONCURRENCY, jobsAhead: JOBS_AHEAD, engine: pipeline.defaultEngine, tesseract: pipeline.tesseract, pipelineThread: onThread, priorities: LANE_PRIORITY }, 'worker started');

  return {
    worker: consumer.worker,
    async close(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      clearInterval(recovery);
      await Promise.all([consumer.close(timeoutMs), retention.close()]);
      // After the receipts: a job finishing during shutdown still queues its webhooks.
      await hooks.close();
      // Closing: an engine that fails to stop has nothing left to do.
      await Promise.allSettled([pipeline.close()]);
    },
  };
}

async function startPipeline(config: Config, log: Logger, onThread: boolean): Promise<PipelineRunner> {
  if (onThread) return PipelineThread.start(config, log);
  configureDecoding(config, log);
  return inProcessPipeline(createOcrEnginesFromConfig(config, config.WORKER_CONCURRENCY, log));
}
