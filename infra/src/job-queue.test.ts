import { randomUUID } from 'node:crypto';
import { LANE_PRIORITY, RECEIPT_JOB, RECEIPT_QUEUE } from '@receipts/common';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServices, type TestServices } from '../../tests/support/services.js';
import { createJobWorker, createReceiptQueue, ReceiptJobs, type JobHandlers, type ReceiptQueue } from './job-queue.js';
import { createLogger } from './logger.js';
import { connectProducerRedis, createRedis } from './redis.js';

// Real Redis and BullMQ under a key prefix of this run's own.
describe('job queue', { timeout: 60_000 }, () => {
  let services: TestServices;
  let producer: Redis;
  let queue: ReceiptQueue;
  let jobs: ReceiptJobs;
  const log = createLogger({ level: 'silent', role: 'test' });

  beforeAll(async () => {
    services = await provisionServices();
    producer = await connectProducerRedis(services.redisUrl);
    queue = createReceiptQueue(producer, services.prefix);
    jobs = new ReceiptJobs(queue, producer, { prefix: services.prefix, attempts: 3, log });
  }, 120_000);

  afterAll(async () => {
    await queue?.close();
    producer?.disconnect();
    await services?.cleanup();
  });

  it('queues an upload once, under its id, with its lane\'s priority and retries', async () => {
    const uploadId = randomUUID();
    await jobs.enqueue({ uploadId, lane: 'express' });
    await jobs.enqueue({ uploadId, lane: 'express' });
    const job = await queue.getJob(uploadId);
    expect(job).toMatchObject({ name: RECEIPT_JOB, priority: LANE_PRIORITY.express, data: { uploadId, lane: 'express' } });
    expect(job!.opts.attempts).toBe(3);
    expect((await queue.getJobCounts('prioritized')).prioritized).toBe(1);
    expect(await jobs.state(uploadId)).toEqual({ state: 'prioritized', failedReason: undefined });
  });

  it('queues an upload again in place of the job of its last run', async () => {
    const uploadId = randomUUID();
    await jobs.enqueue({ uploadId, lane: 'standard' });
    await jobs.reenqueue({ uploadId, lane: 'express' });
    expect((await queue.getJob(uploadId))!.priority).toBe(LANE_PRIORITY.express);
    expect(await jobs.state(randomUUID())).toEqual({ state: 'missing' });
  });

  it('takes a waiting job out of the queue on cancel, and never throws when Redis is gone', async () => {
    const uploadId = randomUUID();
    await jobs.enqueue({ uploadId, lane: 'standard' });
    await jobs.cancel(uploadId);
    expect(await queue.getJob(uploadId)).toBeUndefined();
    const gone = createRedis(services.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    gone.on('error', () => undefined); // disconnected on purpose
    gone.disconnect();
    const warnings: unknown[] = [];
    const watched = createLogger({ level: 'warn', role: 'test' });
    watched.warn = ((obj: unknown) => void warnings.push(obj)) as typeof watched.warn;
    const offline = new ReceiptJobs(createReceiptQueue(gone, services.prefix), gone, { prefix: services.prefix, attempts: 1, log: watched });
    await expect(offline.cancel(uploadId)).resolves.toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ uploadId })]);
  });

  it('refuses to start a worker without a handler for every job name of its queue', () => {
    const connection = createRedis(services.redisUrl);
    expect(() =>
      createJobWorker(RECEIPT_QUEUE, {} as JobHandlers<typeof RECEIPT_QUEUE>, { connection, prefix: services.prefix, log, autorun: false }),
    ).toThrow(/No handler for the receipts job "extract-receipt"/);
    connection.disconnect();
  });

  it('hands each job to the handler of its name', async () => {
    const uploadId = randomUUID();
    const seen: string[] = [];
    await queue.obliterate({ force: true });
    const connection = createRedis(services.redisUrl);
    const worker = createJobWorker(
      RECEIPT_QUEUE,
      { [RECEIPT_JOB]: async (job) => void seen.push(job.data.uploadId) },
      { connection, prefix: services.prefix, log },
    );
    await jobs.enqueue({ uploadId, lane: 'standard' });
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    connection.disconnect();
    expect(seen).toEqual([uploadId]);
  });
});
