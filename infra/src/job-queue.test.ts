import { randomUUID } from 'node:crypto';
import { LANE_PRIORITY, RECEIPT_JOB, RECEIPT_QUEUE } from '@receipts/common';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServices, type TestServices } from '../../tests/support/services.js';
import { DelayedError, UnrecoverableError, WaitingError } from 'bullmq';
import {
  ABORT_REASONS,
  createJobWorker,
  createReceiptQueue,
  queueVerdict,
  ReceiptJobs,
  type JobHandlers,
  type JobOutcome,
  type ReceiptQueue,
} from './job-queue.js';
import { createLogger } from './logger.js';
import { connectProducerRedis, createRedis } from './redis.js';

// The outcome table: how each way a run ends is said to BullMQ.
describe('queueVerdict', () => {
  const crash = new Error('boom');
  const now = 1_000;
  it.each<[JobOutcome, boolean, object]>([
    [{ kind: 'done' }, true, {}],
    [{ kind: 'cancelled' }, true, { error: new UnrecoverableError(ABORT_REASONS.cancel) }],
    [{ kind: 'handed-back' }, true, { moveToWait: true, error: new WaitingError() }],
    [{ kind: 'handed-back' }, false, { error: new UnrecoverableError(ABORT_REASONS.cancel) }],
    [{ kind: 'lock-lost' }, true, { error: expect.objectContaining({ name: 'LockLostError', message: ABORT_REASONS.lockLost }) }],
    [{ kind: 'wait-for-services', delayMs: 3_000, error: crash }, true, { delayUntil: 4_000, error: new DelayedError() }],
    [{ kind: 'wait-for-services', delayMs: 3_000, error: crash }, false, { error: crash }],
    [{ kind: 'retry', error: crash }, true, { error: crash }],
    [{ kind: 'failed', message: 'Not a receipt we can read.', error: crash }, true, { error: new UnrecoverableError('Not a receipt we can read.') }],
  ])('says %o (with a token: %s) as %o', (outcome, hasToken, verdict) => {
    const said = queueVerdict(outcome, hasToken, now);
    expect(said).toEqual(verdict);
    if (said.error instanceof Error && 'error' in verdict && verdict.error instanceof Error) expect(said.error).toBeInstanceOf(verdict.error.constructor);
  });
});

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
      { [RECEIPT_JOB]: async (run) => void seen.push(run.data.uploadId) },
      { connection, prefix: services.prefix, log },
    );
    await jobs.enqueue({ uploadId, lane: 'standard' });
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    connection.disconnect();
    expect(seen).toEqual([uploadId]);
  });

  it('parses each payload where the worker takes it: one that does not parse fails at once, unseen by its handler', async () => {
    await queue.obliterate({ force: true });
    const seen: string[] = [];
    const connection = createRedis(services.redisUrl);
    const worker = createJobWorker(RECEIPT_QUEUE, { [RECEIPT_JOB]: async (run) => void seen.push(run.data.uploadId) }, { connection, prefix: services.prefix, log });
    const bad = await queue.add(RECEIPT_JOB, { uploadId: 'not-an-id', lane: 'standard' }, { jobId: 'bad', attempts: 3 });
    for (let i = 0; i < 100 && !(await bad.isFailed()); i++) await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    connection.disconnect();
    const failed = (await queue.getJob('bad'))!;
    expect(failed.failedReason).toMatch(/^The receipts job "extract-receipt" carries no valid payload/);
    expect(failed.attemptsMade).toBe(1);
    expect(seen).toEqual([]);
  });

  it('moves each job where its outcome says: waits out an outage without spending an attempt, fails for good when told', async () => {
    await queue.obliterate({ force: true });
    const [waiting, failing] = [randomUUID(), randomUUID()];
    const attempts: number[] = [];
    const connection = createRedis(services.redisUrl);
    const worker = createJobWorker(
      RECEIPT_QUEUE,
      {
        [RECEIPT_JOB]: async (run): Promise<JobOutcome> => {
          if (run.data.uploadId === failing) return { kind: 'failed', message: 'Not a receipt we can read.' };
          attempts.push(run.attempt);
          return attempts.length === 1 ? { kind: 'wait-for-services', delayMs: 50, error: new Error('connect ECONNREFUSED') } : { kind: 'done' };
        },
      },
      { connection, prefix: services.prefix, log },
    );
    await jobs.enqueue({ uploadId: waiting, lane: 'standard' });
    await jobs.enqueue({ uploadId: failing, lane: 'standard' });
    for (let i = 0; i < 200 && ((await jobs.state(waiting)).state !== 'completed' || (await jobs.state(failing)).state !== 'failed'); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await worker.close();
    connection.disconnect();
    expect(attempts).toEqual([1, 1]);
    expect((await jobs.state(waiting)).state).toBe('completed');
    // Three attempts, yet one run: a failure told is never tried again.
    expect(await jobs.state(failing)).toEqual({ state: 'failed', failedReason: 'Not a receipt we can read.' });
    expect((await queue.getJob(failing))!.attemptsMade).toBe(1);
  });
});
