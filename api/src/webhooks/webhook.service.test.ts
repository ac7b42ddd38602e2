import { randomUUID } from 'node:crypto';
import { isEmailVerified, parseNetworkList, WEBHOOK_MESSAGES } from '@receipts/common';
import {
  connectProducerRedis,
  createLogger,
  createWebhookQueue,
  schema,
  systemResolver,
  UserRepository,
  WebhookJobs,
  WebhookRepository,
  type HostResolver,
  type UserRow,
  type WebhookPolicy,
} from '@receipts/infra';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { HttpError } from '../http-error.js';
import { WebhookService } from './webhook.service.js';

/** Host names as a test's DNS answers them (localhost as the system does, from /etc/hosts): nothing leaves 127.0.0.1. */
const names: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'split.example.com': ['93.184.216.34', '10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'v6.example.com': ['2606:4700:4700::1111'],
  'nowhere.example.com': [],
};
const resolve: HostResolver = async (host) =>
  host === 'localhost' ? systemResolver(host) : (names[host] ?? Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })));

// Real PostgreSQL and Redis: where an endpoint may point, as registration checks it.
describe('webhook service', { timeout: 60_000 }, () => {
  const log = createLogger({ level: 'silent', role: 'test' });
  let database: TestDatabase;
  let producer: Redis;
  let jobs: WebhookJobs;
  let webhooks: WebhookRepository;
  let user: UserRow;
  let userId: string;
  const service = (policy: WebhookPolicy, queue = jobs) => new WebhookService({ webhooks, jobs: queue, policy, resolve, accounts: { isEmailVerified: (u) => isEmailVerified(u, []) }, log });
  const open: WebhookPolicy = { allowed: [], requireHttps: false };

  beforeAll(async () => {
    database = await openTestDatabase();
    producer = await connectProducerRedis(database.services.redisUrl);
    jobs = new WebhookJobs(createWebhookQueue(producer, database.services.prefix, log));
    webhooks = new WebhookRepository(database.db);
    const users = new UserRepository(database.db);
    const made = (await users.insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!;
    userId = made.id;
    await database.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, userId));
    user = (await users.byId(userId))!;
  }, 120_000);

  afterAll(async () => {
    await jobs?.close();
    producer?.disconnect();
    await database?.close();
  });

  const register = (policy: WebhookPolicy, url: string, who: UserRow = user) => service(policy).create(who, { url, events: ['receipt.completed'] });
  const refusal = (policy: WebhookPolicy, url: string) =>
    register(policy, url).then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code, message: err.message } : Promise.reject(err)),
    );

  it('refuses an account whose address is not confirmed: its receipts’ events go nowhere before it is proven', async () => {
    const unconfirmed = (await new UserRepository(database.db).insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!;
    await expect(register(open, 'https://hooks.example.com/in', unconfirmed)).rejects.toMatchObject({ status: 403, code: 'EMAIL_NOT_VERIFIED', message: WEBHOOK_MESSAGES.confirmBeforeRegistering });
    expect(await webhooks.listEndpoints(unconfirmed.id)).toEqual([]);
  });

  it.each([
    ['a name resolving to a public address', 'https://hooks.example.com/in'],
    ['a name resolving to a public IPv6 address', 'https://v6.example.com/in'],
    ['a public address', 'https://93.184.216.34/in'],
  ])('registers %s', async (_case, url) => {
    expect(await refusal(open, url)).toBeNull();
  });

  it.each([
    ['"localhost" while 127.0.0.1 is not allowed', 'http://localhost:8080/', /^Webhooks cannot be sent to localhost \(.+\): it is a loopback address\.$/],
    ['a name resolving to the metadata service', 'http://metadata.example.com/', /^Webhooks cannot be sent to metadata\.example\.com \(169\.254\.169\.254\): it is the cloud metadata service\.$/],
    ['a name with a private address among its public ones', 'https://split.example.com/', /^Webhooks cannot be sent to split\.example\.com \(10\.1\.2\.3\): it is a private network address\.$/],
    ['a name resolving to nothing', 'https://nowhere.example.com/', /^nowhere\.example\.com does not resolve to an address\.$/],
    ['a name no one knows', 'https://unknown.example.com/', /^unknown\.example\.com does not resolve to an address\.$/],
  ])('refuses %s', async (_case, url, message) => {
    expect(await refusal(open, url)).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
  });

  it('asks for https in production, except within an allowed network', async () => {
    const production: WebhookPolicy = { allowed: parseNetworkList('127.0.0.1/32').networks, requireHttps: true };
    expect(await refusal(production, 'http://hooks.example.com/in')).toMatchObject({ status: 400, message: 'Use an https:// address.' });
    expect(await refusal(production, 'https://hooks.example.com/in')).toBeNull();
    expect(await refusal(production, 'http://127.0.0.1:9/in')).toBeNull();
  });

  it('keeps a test delivery the queue would not take, says so in the log, and answers with it', async () => {
    const endpoint = await register(open, 'https://hooks.example.com/in');
    const downProducer = await connectProducerRedis(database.services.redisUrl);
    const down = new WebhookJobs(createWebhookQueue(downProducer, database.services.prefix, log));
    downProducer.disconnect();
    const sent = await service(open, down).test(userId, endpoint.id);
    expect(sent).toMatchObject({ event: 'webhook.ping', status: 'pending', lastError: expect.stringMatching(/^Not queued yet/) });
    await down.close().catch(() => undefined);
  });
});
