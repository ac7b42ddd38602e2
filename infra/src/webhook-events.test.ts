import { randomUUID } from 'node:crypto';
import { webhookPayloadSchema } from '@receipts/common';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { createLogger } from './logger.js';
import { metrics } from './metrics.js';
import { connectProducerRedis } from './redis.js';
import { UserRepository } from './user.repository.js';
import { WebhookEvents } from './webhook-events.js';
import { createWebhookQueue, WebhookJobs } from './webhook-queue.js';
import { WebhookRepository } from './webhook.repository.js';

// Real PostgreSQL and Redis: an event becomes one delivery row and one job per endpoint that
// wants it, and neither a database nor a queue that fails makes emitting throw.
describe('webhook events', { timeout: 60_000 }, () => {
  const log = createLogger({ level: 'silent', role: 'test' });
  let database: TestDatabase;
  let producer: Redis;
  let jobs: WebhookJobs;
  let webhooks: WebhookRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    producer = await connectProducerRedis(database.services.redisUrl);
    jobs = new WebhookJobs(createWebhookQueue(producer, database.services.prefix, log));
    webhooks = new WebhookRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await jobs?.close();
    producer?.disconnect();
    await database?.close();
  });

  async function accountWithEndpoint() {
    const user = (await new UserRepository(database.db).insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!;
    const endpoint = (await webhooks.createEndpoint({ userId: user.id, url: 'https://hooks.example.com', events: ['receipt.failed'], secret: 'whsec_x' }, 10))!;
    return { userId: user.id, endpointId: endpoint.id };
  }
  const failed = () => ({ uploadId: randomUUID(), filename: 'r.png', error: 'The file is empty.' });

  it('writes the event’s body once and queues its delivery under the delivery’s id', async () => {
    const { userId, endpointId } = await accountWithEndpoint();
    const data = failed();
    await new WebhookEvents({ webhooks, jobs, attempts: 10, log }).emit(userId, 'receipt.failed', data);
    const [delivery] = await webhooks.deliveries(endpointId, 10);
    const body = webhookPayloadSchema.parse(JSON.parse(delivery!.payload));
    expect(body).toMatchObject({ id: delivery!.eventId, type: 'receipt.failed', data });
    expect(Math.abs(Date.parse(body.createdAt) - Date.now())).toBeLessThan(60_000);
    const job = await jobs.queue.getJob(delivery!.id);
    expect(job).toMatchObject({ name: 'deliver-webhook', data: { deliveryId: delivery!.id } });
    expect(job!.opts.attempts).toBe(10);
  });

  it('emits nothing for an anonymous visitor', async () => {
    const before = await jobs.queue.count();
    await new WebhookEvents({ webhooks, jobs, attempts: 10, log }).emit(null, 'receipt.failed', failed());
    expect(await jobs.queue.count()).toBe(before);
  });

  it('keeps a delivery Redis would not take, saying so on its row, and does not throw', async () => {
    const { userId, endpointId } = await accountWithEndpoint();
    const downProducer = await connectProducerRedis(database.services.redisUrl);
    const down = new WebhookJobs(createWebhookQueue(downProducer, database.services.prefix, log));
    downProducer.disconnect();
    await expect(new WebhookEvents({ webhooks, jobs: down, attempts: 10, log }).emit(userId, 'receipt.failed', failed())).resolves.toBeUndefined();
    const [delivery] = await webhooks.deliveries(endpointId, 10);
    expect(delivery).toMatchObject({ status: 'pending' });
    expect(delivery!.lastError).toMatch(/^Not queued yet \(.+\); it is sent once the queue answers\.$/);
    await down.close().catch(() => undefined);
  });

  it('counts an event whose rows the database would not take, and does not throw', async () => {
    const { userId } = await accountWithEndpoint();
    const gone = await openTestDatabase();
    await gone.close();
    const counted = async () => (await metrics.webhookEventsNotRecorded.get()).values.find((v) => v.labels.event === 'receipt.failed')?.value ?? 0;
    const before = await counted();
    await expect(new WebhookEvents({ webhooks: new WebhookRepository(gone.db), jobs, attempts: 10, log }).emit(userId, 'receipt.failed', failed())).resolves.toBeUndefined();
    expect(await counted()).toBe(before + 1);
  });
});
