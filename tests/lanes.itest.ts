import os from 'node:os';
import path from 'node:path';
import { LANE_PRIORITY } from '@receipts/common';
import { UploadService } from '@receipts/api';
import {
  createLogger,
  connectProducerRedis,
  createReceiptQueue,
  createWebhookQueue,
  openRuntime,
  QuotaService,
  ReceiptJobs,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  parseConfig,
  promoteStarvingStandardJobs,
  WebhookEvents,
  WebhookJobs,
  WebhookRepository,
  type ReceiptQueue,
  type Runtime,
} from '@receipts/infra';
import { startReceiptWorker } from '@receipts/worker';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber } from './support/accounts.js';
import { provisionServices, type TestServices } from './support/services.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';

describe('lanes', () => {
  let services: TestServices;
  let runtime: Runtime;
  let producer: Redis;
  let queue: ReceiptQueue;
  let webhookJobs: WebhookJobs;
  let uploads: UploadService;
  let receipt: Buffer;
  const anonymous = (n: number) => ({ userId: null, anonId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });

  beforeAll(async () => {
    services = await provisionServices();
    const config = parseConfig({
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      QUEUE_PREFIX: services.prefix,
      ROLES: 'worker',
      DATA_DIR: path.join(os.tmpdir(), services.prefix),
      WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
    });
    runtime = await openRuntime(config, createLogger({ level: 'warn', role: 'test' }));
    producer = await connectProducerRedis(services.redisUrl);
    queue = createReceiptQueue(producer, services.prefix);
    webhookJobs = new WebhookJobs(createWebhookQueue(producer, services.prefix, runtime.log));
    uploads = new UploadService({
      ...runtime,
      uploads: new UploadRepository(runtime.db),
      uploadReads: new UploadReadRepository(runtime.db),
      duplicates: new UploadDuplicateRepository(runtime.db),
      quota: new QuotaService(runtime.db, runtime.config.ADMIN_EMAILS),
      jobs: new ReceiptJobs(queue, producer, { prefix: services.prefix, attempts: 1, log: runtime.log }),
      webhooks: new WebhookEvents({ webhooks: new WebhookRepository(runtime.db), jobs: webhookJobs, attempts: 1, log: runtime.log }),
    });
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
  });

  afterAll(async () => {
    await queue?.close();
    await webhookJobs?.close();
    producer?.disconnect();
    await runtime?.close();
    await services?.cleanup();
  });

  it('takes an express job before 30 waiting standard jobs', async () => {
    const standard = [];
    for (let i = 0; i < 30; i++) standard.push(await uploads.create(anonymous(i), { originalname: `s${i}.jpg`, buffer: receipt }));
    const { userId } = await createSubscriber(runtime.db);
    const express = await uploads.create({ userId, anonId: null }, { originalname: 'e.jpg', buffer: receipt });
    // Jobs are queued once their files are stored, after create answers.
    await uploads.drain();
    expect(express.lane).toBe('express');
    expect(standard.every((u) => u.lane === 'standard')).toBe(true);

    // The order jobs leave the queue in (a worker takes them one at a time); finished ones beside.
    const started: string[] = [];
    const finished: string[] = [];
    // Paused until the listeners are on, so the first job taken cannot go unseen.
    await queue.pause();
    const worker = await startReceiptWorker(runtime);
    worker.worker.on('active', (job) => started.push(job.id!));
    worker.worker.on('completed', (job) => finished.push(job.id!));
    await queue.resume();
    const deadline = Date.now() + 60_000;
    while (started.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const finishedWhenSecondStarted = finished.length;
    await worker.close(0);

    expect(started[0]).toBe(express.id);
    expect(started[1]).toBe(standard[0]!.id);
    // One OCR slot (WORKER_CONCURRENCY 1), and the next job is already taken while the first runs
    // (JOBS_AHEAD), so the slot never waits for the database between jobs.
    expect(finishedWhenSecondStarted).toBe(0);
  });

  it('promotes standard jobs that waited too long, oldest first, and leaves young ones', async () => {
    await queue.obliterate({ force: true });
    const old = await uploads.create(anonymous(1), { originalname: 'old.jpg', buffer: receipt });
    await uploads.stored(old.id);
    await new Promise((r) => setTimeout(r, 300));
    const young = await uploads.create(anonymous(2), { originalname: 'young.jpg', buffer: receipt });
    await uploads.stored(young.id);
    const promoted = await promoteStarvingStandardJobs(queue, 250);
    expect(promoted).toBe(1);
    expect((await queue.getJob(old.id))!.priority).toBe(LANE_PRIORITY.express);
    expect((await queue.getJob(young.id))!.priority).toBe(LANE_PRIORITY.standard);
  });
});
