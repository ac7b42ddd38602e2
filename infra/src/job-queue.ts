import {
  CHANNELS,
  LANE_PRIORITY,
  MAINTENANCE_QUEUE,
  PURGE_ORIGINALS_JOB,
  RECEIPT_JOB,
  RECEIPT_QUEUE,
  type Lane,
  type ReceiptJob,
} from '@receipts/common';
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
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
  [MAINTENANCE_QUEUE]: { [PURGE_ORIGINALS_JOB]: MaintenanceJob };
}
export type QueueName = keyof JobPayloads;
type JobData<Q extends QueueName> = JobPayloads[Q][keyof JobPayloads[Q]];

/** The job names of each queue, for the boot-time check that every one has its handler. */
const JOB_NAMES: { [Q in QueueName]: ReadonlyArray<keyof JobPayloads[Q] & string> } = {
  [RECEIPT_QUEUE]: [RECEIPT_JOB],
  [MAINTENANCE_QUEUE]: [PURGE_ORIGINALS_JOB],
};

/** One handler per job name of a queue. */
export type JobHandlers<Q extends QueueName> = {
  [N in keyof JobPayloads[Q]]: (job: Job<JobPayloads[Q][N]>, token?: string, signal?: AbortSignal) => Promise<unknown>;
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

/**
 * A worker for one queue, taking each job to the handler of its name. Every job name must have
 * a handler, checked here at boot; a job of an unknown name fails at once instead of retrying.
 */
export function createJobWorker<Q extends QueueName>(
  queue: Q,
  handlers: JobHandlers<Q>,
  options: Omit<WorkerOptions, 'connection' | 'prefix'> & { connection: ConnectionOptions; prefix: string; log: Logger },
): Worker<JobData<Q>> {
  const { log, ...workerOptions } = options;
  const byName = handlers as Record<string, ((job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>) | undefined>;
  for (const name of JOB_NAMES[queue]) {
    if (typeof byName[name] !== 'function') throw new Error(`No handler for the ${queue} job "${name}"`);
  }
  const worker = new Worker<JobData<Q>>(
    queue,
    async (job, token, signal) => {
      const handler = byName[job.name];
      if (!handler) throw new UnrecoverableError(`No handler for the ${queue} job "${job.name}"`);
      return handler(job, token, signal);
    },
    workerOptions,
  );
  worker.on('error', (err) => log.error({ err }, `${queue} worker error`));
  return worker;
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
  await queue.upsertJobScheduler(PURGE_ORIGINALS_JOB, { every: options.everyMs }, { name: PURGE_ORIGINALS_JOB, data: {}, opts: MAINTENANCE_JOB_OPTIONS });
  const connection = createRedis(redisUrl);
  const worker = createJobWorker(MAINTENANCE_QUEUE, options.handlers, { connection, prefix, concurrency: 1, log });
  worker.on('failed', (job, err) => log.warn({ job: job?.name, err: err.message }, 'maintenance job failed; the next run tries again'));
  return {
    async close() {
      await worker.close();
      await Promise.allSettled([queue.close(), queueConnection.quit(), connection.quit()]);
    },
  };
}
