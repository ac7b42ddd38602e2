import { WEBHOOK_DELIVERY_JOB, WEBHOOK_QUEUE, webhookRetryDelayMs, type WebhookJob } from '@receipts/common';
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { createJobWorker, type JobOutcome, type JobRun } from './job-queue.js';
import type { Logger } from './logger.js';
import { createRedis } from './redis.js';

// The one owner of the webhooks queue: where a delivery becomes a job, and the worker that
// sends them. A job names its delivery only; the delivery's row counts its attempts and says
// when the next one is due, so a job queued again after Redis lost it goes on where it was.

export type WebhookQueue = Queue<WebhookJob, void, typeof WEBHOOK_DELIVERY_JOB>;

/** The backoff type of a delivery's job: its wait is the one its row decided (WebhookRetry). */
const BACKOFF = 'webhook-schedule';

/** A failed attempt that is tried again after `delayMs`: the error of a 'retry' outcome, read by the backoff strategy. */
export class WebhookRetry extends Error {
  override name = 'WebhookRetry';
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

function jobOptions(deliveryId: string, attemptsLeft: number): JobsOptions {
  return {
    jobId: deliveryId,
    // Enough for the attempts the row has left; the handler gives up on the row's count, never BullMQ's.
    attempts: Math.max(1, attemptsLeft),
    backoff: { type: BACKOFF },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** The webhooks queue on `connection`; its errors are logged. */
export function createWebhookQueue(connection: ConnectionOptions, prefix: string, log: Logger): WebhookQueue {
  const queue = new Queue<WebhookJob, void, typeof WEBHOOK_DELIVERY_JOB>(WEBHOOK_QUEUE, { connection, prefix });
  queue.on('error', (err) => log.warn({ err: err.message }, 'webhook queue error'));
  return queue;
}

/** Where a delivery becomes a job: the job id is the delivery id, so a delivery is never queued twice. */
export class WebhookJobs {
  constructor(readonly queue: WebhookQueue) {}

  async enqueue(deliveryId: string, attemptsLeft: number): Promise<void> {
    await this.queue.add(WEBHOOK_DELIVERY_JOB, { deliveryId }, jobOptions(deliveryId, attemptsLeft));
  }

  /**
   * Queues a delivery the queue should hold but may have lost (the recovery sweep): one still
   * waiting, delayed or running is left alone; a finished job of it goes first, since its id
   * would refuse the new one. Whether it was queued.
   */
  async requeue(deliveryId: string, attemptsLeft: number): Promise<boolean> {
    const job = await this.queue.getJob(deliveryId);
    if (job) {
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed') return false;
      await job.remove();
    }
    await this.enqueue(deliveryId, attemptsLeft);
    return true;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export interface WebhookConsumerOptions {
  redisUrl: string;
  prefix: string;
  /** Deliveries sent at once. */
  concurrency: number;
  /** The waits between attempts, for a retry whose error does not say its own (an unexpected throw). */
  schedule: readonly number[];
  log: Logger;
  handle: (run: JobRun<WebhookJob>) => Promise<JobOutcome>;
}

export interface WebhookConsumer {
  jobs: WebhookJobs;
  close(): Promise<void>;
}

/**
 * The webhooks queue seen from a worker process: the BullMQ worker sending deliveries, and the
 * queue its emissions and recovery sweep add to. Two Redis connections of its own (the worker's
 * blocks).
 */
export function startWebhookConsumer(options: WebhookConsumerOptions): WebhookConsumer {
  const { redisUrl, prefix, log, schedule } = options;
  const connection = createRedis(redisUrl);
  const worker = createJobWorker(WEBHOOK_QUEUE, { [WEBHOOK_DELIVERY_JOB]: options.handle }, {
    connection,
    prefix,
    concurrency: options.concurrency,
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
        err instanceof WebhookRetry ? err.delayMs : (webhookRetryDelayMs(schedule, attemptsMade) ?? schedule.at(-1) ?? 60_000),
    },
    log,
  });
  worker.on('failed', (job, err) => {
    if (job?.finishedOn) log.warn({ deliveryId: job.data.deliveryId, err: err.message }, 'webhook delivery job ended failed');
  });
  // Adds fail at once while Redis is down (no offline queue): an event is emitted inside a
  // receipt's job, which must not wait on its webhooks; the row notes it and the sweep queues it.
  const queueConnection = createRedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const jobs = new WebhookJobs(createWebhookQueue(queueConnection, prefix, log));
  return {
    jobs,
    async close() {
      await worker.close();
      // The queue's own commands first, then its connection (see startMaintenance).
      await jobs.close().catch((err: unknown) => log.warn({ err }, 'webhook queue did not close cleanly'));
      await Promise.allSettled([queueConnection.quit(), connection.quit()]);
    },
  };
}
