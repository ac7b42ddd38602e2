import {
  CHANNELS,
  LANE_PRIORITY,
  MAINTENANCE_QUEUE,
  PRUNE_IDEMPOTENCY_KEYS_JOB,
  PURGE_ORIGINALS_JOB,
  RECEIPT_JOB,
  RECEIPT_QUEUE,
  receiptJobSchema,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_QUEUE,
  webhookJobSchema,
  type Lane,
  type ReceiptJob,
  type WebhookJob,
} from '@receipts/common';
import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker, type ConnectionOptions, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from './logger.js';
import { createRedis } from './redis.js';

/** Housekeeping jobs carry nothing: each run reads what is due from PostgreSQL. */
export type MaintenanceJob = Record<string, never>;

/**
 * Every queue, its job names and their payloads. Payloads carry ids only; everything else is
 * read from PostgreSQL when the job runs.
 */
export interface JobPayloads {
  [RECEIPT_QUEUE]: { [RECEIPT_JOB]: ReceiptJob };
  [MAINTENANCE_QUEUE]: { [PURGE_ORIGINALS_JOB]: MaintenanceJob; [PRUNE_IDEMPOTENCY_KEYS_JOB]: MaintenanceJob };
  /** Its queue and worker are webhook-queue.ts's. */
  [WEBHOOK_QUEUE]: { [WEBHOOK_DELIVERY_JOB]: WebhookJob };
}
export type QueueName = keyof JobPayloads;
type JobData<Q extends QueueName> = JobPayloads[Q][keyof JobPayloads[Q]];

/**
 * Each job name of each queue with the schema its payload is parsed with where a worker takes it
 * (Redis is shared: what comes out of it is checked like any input). Also the boot-time list of
 * the names every worker must have a handler for.
 */
const JOB_SCHEMAS: { [Q in QueueName]: { [N in keyof JobPayloads[Q]]: z.ZodType<JobPayloads[Q][N]> } } = {
  [RECEIPT_QUEUE]: { [RECEIPT_JOB]: receiptJobSchema },
  [MAINTENANCE_QUEUE]: {
    [PURGE_ORIGINALS_JOB]: z.strictObject({}) as z.ZodType<MaintenanceJob>,
    [PRUNE_IDEMPOTENCY_KEYS_JOB]: z.strictObject({}) as z.ZodType<MaintenanceJob>,
  },
  [WEBHOOK_QUEUE]: { [WEBHOOK_DELIVERY_JOB]: webhookJobSchema },
};

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

/** One run of a job as its handler sees it: the parsed payload, which attempt this is, and what stops it. */
export interface JobRun<T> {
  id: string;
  data: T;
  /** 1 on the first run. */
  attempt: number;
  /** Attempts the job has in all. */
  attempts: number;
  /** Fires with one of ABORT_REASONS. */
  signal?: AbortSignal;
}

/**
 * How a run of a job ended, in the job's terms; `settleJob` alone says it to BullMQ.
 * - done: finished (also when there was nothing left to do).
 * - cancelled: the user cancelled; never tried again.
 * - handed-back: this worker is shutting down; the job waits for another at once.
 * - lock-lost: the stalled-job check has given the job to a worker again; this run is dropped.
 * - wait-for-services: PostgreSQL or Redis is unreachable; tried again after `delayMs`, spending no attempt.
 * - retry: a failed attempt; tried again with backoff while attempts remain.
 * - failed: given up, with the message the user was shown.
 */
export type JobOutcome =
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'handed-back' }
  | { kind: 'lock-lost' }
  | { kind: 'wait-for-services'; delayMs: number; error: unknown }
  | { kind: 'retry'; error: unknown }
  | { kind: 'failed'; message: string; error?: unknown };

/** A run given up because its lock lapsed: the job runs again from the queue, nothing is recorded. */
class LockLostError extends Error {
  override name = 'LockLostError';
  constructor() {
    super(ABORT_REASONS.lockLost);
  }
}

/** What BullMQ is told of an outcome: where the job moves under the run's token, then what the handler throws. */
export interface QueueVerdict {
  moveToWait?: true;
  /** Epoch milliseconds the job is delayed to. */
  delayUntil?: number;
  error?: unknown;
}

/**
 * The outcome table. Moving a job needs the run's lock token; without one (a handler called
 * outside a worker) an outcome falls back to what the job would do without moving.
 */
export function queueVerdict(outcome: JobOutcome, hasToken: boolean, now: number): QueueVerdict {
  switch (outcome.kind) {
    case 'done':
      return {};
    case 'cancelled':
      return { error: new UnrecoverableError(ABORT_REASONS.cancel) };
    case 'handed-back':
      return hasToken ? { moveToWait: true, error: new WaitingError() } : { error: new UnrecoverableError(ABORT_REASONS.cancel) };
    case 'lock-lost':
      return { error: new LockLostError() };
    case 'wait-for-services':
      return hasToken ? { delayUntil: now + outcome.delayMs, error: new DelayedError() } : { error: outcome.error };
    case 'retry':
      return { error: outcome.error };
    case 'failed':
      return { error: new UnrecoverableError(outcome.message) };
  }
}

/** Tells BullMQ how a run ended: moves the job where its outcome says, and throws what makes BullMQ leave it there. */
async function settleJob(job: Job, token: string | undefined, outcome: JobOutcome): Promise<void> {
  const verdict = queueVerdict(outcome, token !== undefined, Date.now());
  if (verdict.moveToWait) await job.moveToWait(token);
  if (verdict.delayUntil !== undefined) await job.moveToDelayed(verdict.delayUntil, token);
  if (verdict.error !== undefined) throw verdict.error;
}

/** One handler per job name of a queue; nothing returned means done. */
export type JobHandlers<Q extends QueueName> = {
  [N in keyof JobPayloads[Q]]: (run: JobRun<JobPayloads[Q][N]>) => Promise<JobOutcome | void>;
};

export type ReceiptQueue = Queue<ReceiptJob, void, typeof RECEIPT_JOB>;

/** Job options per lane: the lane sets the priority; transient failures retry with backoff. */
export function receiptJobOptions(lane: Lane, attempts: number): JobsOptions {
  return {
    priority: LANE_PRIORITY[lane],
    attempts,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** Housekeeping rides the standard lane's priority: it is never urgent. */
const MAINTENANCE_JOB_OPTIONS: JobsOptions = { priority: LANE_PRIORITY.standard, removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } };

/**
 * The receipts queue. Without a logger (tests, tools) its connection errors surface through the
 * calls that fail; with one they are logged.
 */
export function createReceiptQueue(connection: ConnectionOptions, prefix: string, log?: Logger): ReceiptQueue {
  const queue = new Queue<ReceiptJob, void, typeof RECEIPT_JOB>(RECEIPT_QUEUE, { connection, prefix });
  queue.on('error', (err) => log?.warn({ err: err.message }, 'receipt queue error'));
  return queue;
}

/** Cancel requests for active jobs: only the worker holding a job can abort it. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:${CHANNELS.cancelRequests}`;
}

/** Calls `onCancel` with each upload id a cancel is asked for. `subscriber` must be a connection of its own. */
export async function onCancelRequests(subscriber: Redis, prefix: string, onCancel: (uploadId: string) => void): Promise<void> {
  const channel = cancelChannel(prefix);
  subscriber.on('message', (from: string, uploadId: string) => {
    if (from === channel) onCancel(uploadId);
  });
  await subscriber.subscribe(channel);
}

export type ReceiptJobState = Awaited<ReturnType<Job['getState']>> | 'missing';

/**
 * Where an upload becomes a job, and where its job is cancelled or queued again. The job id is
 * the upload id, so an upload can never be queued twice.
 */
export class ReceiptJobs {
  constructor(
    readonly queue: ReceiptQueue,
    /** Publishes cancel requests; fails fast when Redis is down (no offline queue). */
    private readonly publisher: Redis,
    private readonly options: { prefix: string; attempts: number; log: Logger },
  ) {}

  /**
   * Whether Redis is connected, so a caller can refuse work before writing anything. The
   * connection's state, not a ping: a lost connection is seen at once, and a round trip per
   * upload was a tenth of what accepting one costs.
   */
  connected(): boolean {
    return this.publisher.status === 'ready';
  }

  async enqueue(job: ReceiptJob): Promise<void> {
    await this.queue.add(RECEIPT_JOB, job, { jobId: job.uploadId, ...receiptJobOptions(job.lane, this.options.attempts) });
  }

  /** Queues an upload again: the finished or failed job of its last run still holds the id in BullMQ, so it goes first. */
  async reenqueue(job: ReceiptJob): Promise<void> {
    await (await this.queue.getJob(job.uploadId))?.remove();
    await this.enqueue(job);
  }

  /**
   * Stops an upload's job: a waiting one leaves the queue; one a worker holds is aborted by that
   * worker, asked over the cancel channel. Never throws: the upload is already marked ended, so
   * a job still running finds it so at its next step and stops; the failure is logged.
   */
  async cancel(uploadId: string): Promise<void> {
    try {
      const job = await this.queue.getJob(uploadId);
      if (!job) return;
      // remove() refuses a job a worker holds; that one is aborted through its worker.
      const removed = await job.remove().then(
        () => true,
        () => false,
      );
      if (!removed) await this.publisher.publish(cancelChannel(this.options.prefix), uploadId);
    } catch (err) {
      this.options.log.warn({ err, uploadId }, 'cancel request not delivered; the job stops at its next step');
    }
  }

  /** Where the upload's job is: waiting, active, completed, failed (with its reason) …, or missing. */
  async state(uploadId: string): Promise<{ state: ReceiptJobState; failedReason?: string }> {
    const job = await this.queue.getJob(uploadId);
    if (!job) return { state: 'missing' };
    return { state: await job.getState(), failedReason: job.failedReason };
  }

  /** Waiting jobs per lane and jobs per state, for the admin screen. */
  async counts() {
    const [jobs, perPriority] = await Promise.all([
      this.queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'),
      this.queue.getCountsPerPriority(Object.values(LANE_PRIORITY)),
    ]);
    const lanes = Object.fromEntries(
      (Object.entries(LANE_PRIORITY) as Array<[Lane, number]>).map(([lane, priority]) => [lane, { waiting: perPriority[String(priority)] ?? 0 }]),
    ) as Record<Lane, { waiting: number }>;
    return { lanes, jobs };
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The BullMQ worker of the receipts queue, for a caller that watches its events. */
export type ReceiptWorker = Worker<ReceiptJob>;

type AnyHandler = (run: JobRun<unknown>) => Promise<JobOutcome | void>;

/**
 * A worker for one queue, taking each job to the handler of its name with its payload parsed.
 * Every job name must have a handler, checked here at boot; a job of an unknown name or with a
 * payload that does not parse fails at once instead of retrying.
 */
export function createJobWorker<Q extends QueueName>(
  queue: Q,
  handlers: JobHandlers<Q>,
  options: Omit<WorkerOptions, 'connection' | 'prefix'> & { connection: ConnectionOptions; prefix: string; log: Logger },
): Worker<JobData<Q>> {
  const { log, ...workerOptions } = options;
  const byName = handlers as Record<string, AnyHandler | undefined>;
  const schemas = JOB_SCHEMAS[queue] as Record<string, z.ZodType | undefined>;
  for (const name of Object.keys(schemas)) {
    if (typeof byName[name] !== 'function') throw new Error(`No handler for the ${queue} job "${name}"`);
  }
  const worker = new Worker<JobData<Q>>(
    queue,
    async (job, token, signal) => {
      const handler = byName[job.name];
      const schema = schemas[job.name];
      if (!handler || !schema) throw new UnrecoverableError(`No handler for the ${queue} job "${job.name}"`);
      const payload = schema.safeParse(job.data);
      if (!payload.success) throw new UnrecoverableError(`The ${queue} job "${job.name}" carries no valid payload: ${z.prettifyError(payload.error)}`);
      const run = { id: job.id!, data: payload.data, attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1, signal };
      await settleJob(job, token, (await handler(run)) ?? { kind: 'done' });
    },
    workerOptions,
  );
  worker.on('error', (err) => log.error({ err }, `${queue} worker error`));
  return worker;
}

const AGING_BATCH = 100;

/**
 * Express jobs overtake waiting standard ones; this keeps standard work moving under a steady
 * stream of express work: a standard job that has waited longer than `maxWaitMs` joins the
 * express priority, at its end. Several workers may run it at once: a job promoted twice is
 * simply at the end of the express line.
 */
export async function promoteStarvingStandardJobs(queue: ReceiptQueue, maxWaitMs: number, now = Date.now()): Promise<number> {
  const counts = await queue.getCountsPerPriority([LANE_PRIORITY.express]);
  const expressWaiting = counts[String(LANE_PRIORITY.express)] ?? 0;
  // Prioritized jobs are ordered by priority then arrival, so the oldest standard ones come first.
  const oldest = await queue.getPrioritized(expressWaiting, expressWaiting + AGING_BATCH - 1);
  let promoted = 0;
  for (const job of oldest) {
    if (job.priority !== LANE_PRIORITY.standard || now - job.timestamp < maxWaitMs) break;
    await job.changePriority({ priority: LANE_PRIORITY.express });
    promoted += 1;
  }
  return promoted;
}

export interface ReceiptConsumerOptions {
  redisUrl: string;
  prefix: string;
  /** Jobs held at once. */
  concurrency: number;
  lockDuration: number;
  stalledInterval: number;
  attempts: number;
  /** A standard job waiting longer joins the express lane. */
  standardMaxWaitMs: number;
  /** The runtime's publisher, for the cancel requests of the jobs this consumer queues again. */
  publisher: Redis;
  log: Logger;
  handle: (run: JobRun<ReceiptJob>) => Promise<JobOutcome>;
  /**
   * A job that ended failed for a reason its handler could not record (stalled too often, a crash
   * on its last attempt), so no upload stays "processing" forever. Also called after a failure
   * the handler recorded: it must change nothing then.
   */
  onGivenUp: (job: ReceiptJob) => void;
}

export interface ReceiptConsumer {
  worker: ReceiptWorker;
  jobs: ReceiptJobs;
  /** Finishes active jobs for up to `timeoutMs`, then hands the rest back to the queue. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * The receipts queue seen from a worker: the BullMQ worker running `handle`, the cancel requests
 * it listens to, the queue it puts lost uploads back on, and lane aging. Three Redis connections
 * of its own (a worker's and a subscriber's block; the queue's must not wait behind them).
 */
export async function startReceiptConsumer(options: ReceiptConsumerOptions): Promise<ReceiptConsumer> {
  const { redisUrl, prefix, log } = options;
  const connection = createRedis(redisUrl);
  const worker = createJobWorker(RECEIPT_QUEUE, { [RECEIPT_JOB]: options.handle }, {
    connection,
    prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockDuration,
    stalledInterval: options.stalledInterval,
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
    if (job.finishedOn && err.message !== ABORT_REASONS.cancel && err.message !== ABORT_REASONS.lockLost) {
      const payload = receiptJobSchema.safeParse(job.data);
      if (payload.success) options.onGivenUp(payload.data);
    }
  });

  // Cancel requests reach every worker; only the one holding the job can abort it.
  const subscriber = createRedis(redisUrl);
  subscriber.on('error', (err) => log.warn({ err: err.message }, 'cancel subscriber error'));
  await onCancelRequests(subscriber, prefix, (uploadId) => {
    if (worker.cancelJob(uploadId, ABORT_REASONS.cancel)) log.info({ uploadId }, 'active job cancelled');
  });

  const queueConnection = createRedis(redisUrl);
  const jobs = new ReceiptJobs(createReceiptQueue(queueConnection, prefix, log), options.publisher, { prefix, attempts: options.attempts, log });
  const aging = setInterval(() => {
    promoteStarvingStandardJobs(jobs.queue, options.standardMaxWaitMs).then(
      (n) => n > 0 && log.info({ promoted: n }, 'standard jobs promoted after waiting too long'),
      (err: unknown) => log.warn({ err }, 'lane aging failed'),
    );
  }, Math.min(10_000, options.standardMaxWaitMs / 2));

  return {
    worker,
    jobs,
    async close(timeoutMs) {
      clearInterval(aging);
      const timer = setTimeout(() => worker.cancelAllJobs(ABORT_REASONS.shutdown), timeoutMs);
      await worker.close();
      clearTimeout(timer);
      await Promise.allSettled([subscriber.quit(), jobs.close()]);
      // Closing: a connection already gone needs no quit.
      await Promise.allSettled([connection.quit(), queueConnection.quit()]);
    },
  };
}

/**
 * The repeatable housekeeping jobs. Every worker process upserts the same schedule (one
 * schedule, whoever starts first) and BullMQ hands each run to exactly one of them.
 */
export async function startMaintenance(options: {
  redisUrl: string;
  prefix: string;
  everyMs: number;
  handlers: JobHandlers<typeof MAINTENANCE_QUEUE>;
  log: Logger;
}): Promise<{ close(): Promise<void> }> {
  const { redisUrl, prefix, log } = options;
  const queueConnection = createRedis(redisUrl);
  const queue = new Queue<MaintenanceJob>(MAINTENANCE_QUEUE, { connection: queueConnection, prefix });
  queue.on('error', (err) => log.warn({ err: err.message }, 'maintenance queue error'));
  for (const name of [PURGE_ORIGINALS_JOB, PRUNE_IDEMPOTENCY_KEYS_JOB]) {
    await queue.upsertJobScheduler(name, { every: options.everyMs }, { name, data: {}, opts: MAINTENANCE_JOB_OPTIONS });
  }
  const connection = createRedis(redisUrl);
  const worker = createJobWorker(MAINTENANCE_QUEUE, options.handlers, { connection, prefix, concurrency: 1, log });
  worker.on('failed', (job, err) => log.warn({ job: job?.name, err: err.message }, 'maintenance job failed; the next run tries again'));
  return {
    async close() {
      await worker.close();
      // The queue's own commands first: quitting its connection under a closing queue leaves
      // BullMQ a command on a closed connection (an unhandled "Connection is closed").
      await queue.close().catch((err: unknown) => log.warn({ err }, 'maintenance queue did not close cleanly'));
      await Promise.allSettled([queueConnection.quit(), connection.quit()]);
    },
  };
}
