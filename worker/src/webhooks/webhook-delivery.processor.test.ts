import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseNetworkList, WEBHOOK_MESSAGES, WEBHOOK_SIGNATURE_HEADER, type WebhookEvent, type WebhookJob } from '@receipts/common';
import { verifyWebhookSignature } from '@receipts/common/webhook-signature';
import {
  connectProducerRedis,
  createLogger,
  createMailer,
  createWebhookQueue,
  UserRepository,
  WebhookJobs,
  WebhookRepository,
  WebhookRetry,
  type JobRun,
  type WebhookPolicy,
} from '@receipts/infra';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink.js';
import { createWebhookDeliveryProcessor, requeueOverdueDeliveries, type WebhookDeliveryDeps } from './webhook-delivery.processor.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on 127.0.0.1 whose answer each path names: /ok 204, /fail 500, /redirect 302 to a
 * private address, /bounce 302 to /landing on itself, /silent never answers.
 */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      if (req.url === '/ok') res.writeHead(204).end();
      else if (req.url === '/fail') res.writeHead(500).end('down');
      else if (req.url === '/redirect') res.writeHead(302, { Location: 'http://10.0.0.1/hooks' }).end();
      else if (req.url === '/bounce') res.writeHead(302, { Location: `http://127.0.0.1:${port()}/landing` }).end();
      else if (req.url === '/silent') return;
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = () => (server.address() as AddressInfo).port;
  return {
    received,
    url: (path: string, host = '127.0.0.1') => `http://${host}:${port()}${path}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Real PostgreSQL, a real receiver on 127.0.0.1 and a real SMTP server: one job run is one
// attempt, recorded on the delivery's row, which alone decides what comes next.
describe('webhook delivery processor', { timeout: 60_000 }, () => {
  const log = createLogger({ level: 'silent', role: 'test' });
  const loopbackOnly: WebhookPolicy = { allowed: parseNetworkList('127.0.0.1/32').networks, requireHttps: false };
  const SCHEDULE = [1_000, 2_000];
  let database: TestDatabase;
  let webhooks: WebhookRepository;
  let users: UserRepository;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: SmtpSink;
  let deps: WebhookDeliveryDeps;

  beforeAll(async () => {
    database = await openTestDatabase();
    webhooks = new WebhookRepository(database.db);
    users = new UserRepository(database.db);
    receiver = await startReceiver();
    smtp = await startSmtpSink();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'receipts@example.test', dataDir: '/nonexistent', log });
    deps = { webhooks, mailer, policy: loopbackOnly, schedule: SCHEDULE, timeoutMs: 1_500, publicUrl: 'http://receipts.test', log };
  }, 120_000);

  beforeEach(() => {
    receiver.received.length = 0;
  });

  afterAll(async () => {
    await receiver?.close();
    await smtp?.close();
    await database?.close();
  });

  const run = (deliveryId: string): JobRun<WebhookJob> => ({ id: deliveryId, data: { deliveryId }, attempt: 1, attempts: 3 });

  /** An account with one endpoint at `url`, and an event of its own written for it: the delivery's id. */
  async function eventFor(url: string, event: WebhookEvent = 'receipt.completed') {
    const email = `${randomUUID()}@example.test`;
    const user = (await users.insert({ email, username: 'u', passwordHash: 'x' }))!;
    const endpoint = (await webhooks.createEndpoint({ userId: user.id, url, events: [event], secret: `whsec_${randomUUID()}` }, 10))!;
    const eventId = randomUUID();
    const payload = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data: { uploadId: randomUUID() } });
    const [id] = await webhooks.recordEvent(user.id, { eventId, event, payload }, SCHEDULE.length + 1);
    return { id: id!, endpoint, email, payload, userId: user.id };
  }
  const rowOf = async (id: string) => (await webhooks.forSending(id))!.delivery;

  it('posts the body as stored, signed with the endpoint’s secret, and records the answer', async () => {
    const { id, endpoint, payload } = await eventFor(receiver.url('/ok'));
    expect(await createWebhookDeliveryProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    const [request] = receiver.received;
    expect(request!.body).toBe(payload);
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'receipts-event': 'receipt.completed', 'receipts-delivery': id });
    const signature = request!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(verifyWebhookSignature(request!.body, signature, endpoint.secret)).toMatchObject({ ok: true });
    expect(verifyWebhookSignature(request!.body, signature, 'whsec_someone-else')).toEqual({ ok: false, reason: 'mismatch' });
    expect(await rowOf(id)).toMatchObject({ status: 'delivered', attempts: 1, lastHttpStatus: 204, lastError: null });
    expect((await rowOf(id)).responseTimeMs).toBeGreaterThanOrEqual(0);
    // Run again (a job BullMQ gave out twice): nothing is sent twice.
    expect(await createWebhookDeliveryProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    expect(receiver.received).toHaveLength(1);
  });

  it('tries a 500 again on the schedule, then gives up, turns the endpoint off and mails its owner', async () => {
    const { id, endpoint, email } = await eventFor(receiver.url('/fail'));
    const deliver = createWebhookDeliveryProcessor(deps);
    for (const [attempt, wait] of SCHEDULE.entries()) {
      const before = Date.now();
      const outcome = await deliver(run(id));
      expect(outcome).toMatchObject({ kind: 'retry' });
      expect((outcome as { error: WebhookRetry }).error.delayMs).toBe(wait);
      const row = await rowOf(id);
      expect(row).toMatchObject({ status: 'retrying', attempts: attempt + 1, lastHttpStatus: 500, lastError: 'Answered 500.' });
      expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + wait);
    }
    expect(await deliver(run(id))).toEqual({ kind: 'failed', message: 'Answered 500.' });
    expect(receiver.received).toHaveLength(3);
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    const off = (await webhooks.endpoint(endpoint.userId, endpoint.id))!;
    expect(off).toMatchObject({ enabled: false, disabledReason: WEBHOOK_MESSAGES.disabledByFailures('receipt.completed', 'Answered 500.') });
    const [mail] = await smtp.mailsTo(email);
    expect(mail!.decoded).toContain(`Subject: ${WEBHOOK_MESSAGES.disabledMailSubject}`);
    expect(mail!.decoded).toContain(endpoint.url);
    expect(mail!.decoded).toContain('http://receipts.test/account');
  });

  it('counts a redirect to a private address as a failure and never follows it', async () => {
    const { id } = await eventFor(receiver.url('/redirect'));
    const started = Date.now();
    expect(await createWebhookDeliveryProcessor(deps)(run(id))).toMatchObject({ kind: 'retry' });
    // Following it would have waited on 10.0.0.1 until the attempt's time ran out.
    expect(Date.now() - started).toBeLessThan(deps.timeoutMs);
    expect(await rowOf(id)).toMatchObject({ status: 'retrying', lastHttpStatus: 302, lastError: 'Answered 302 to http://10.0.0.1/hooks; redirects are not followed.' });
  });

  it('does not follow a redirect even to an allowed address', async () => {
    const { id } = await eventFor(receiver.url('/bounce'));
    await createWebhookDeliveryProcessor(deps)(run(id));
    expect(receiver.received.map((r) => r.path)).toEqual(['/bounce']);
    expect((await rowOf(id)).lastHttpStatus).toBe(302);
  });

  it('refuses a name that resolves to loopback when loopback is not allowed, and sends nothing', async () => {
    const { id } = await eventFor(receiver.url('/ok', 'localhost'));
    const closed = { ...deps, policy: { allowed: [], requireHttps: false } };
    expect(await createWebhookDeliveryProcessor(closed)(run(id))).toMatchObject({ kind: 'retry' });
    expect(receiver.received).toHaveLength(0);
    expect(await rowOf(id)).toMatchObject({ status: 'retrying', lastHttpStatus: null });
    expect((await rowOf(id)).lastError).toMatch(/^Webhooks cannot be sent to localhost \((127\.0\.0\.1|0:0:0:0:0:0:0:1)\): it is a loopback address\.$/);
  });

  it('connects to the address it checked: a name that answers otherwise the next time is not asked again', async () => {
    const { id } = await eventFor(receiver.url('/ok', 'rebinding.test'));
    const asked: string[] = [];
    // The first answer passes the check; a second one (a rebinding DNS server) would point at a private address.
    const resolve = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? ['127.0.0.1'] : ['10.0.0.1'];
    };
    expect(await createWebhookDeliveryProcessor({ ...deps, resolve })(run(id))).toEqual({ kind: 'done' });
    expect(asked).toEqual(['rebinding.test']);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`rebinding.test:${new URL(receiver.url('/')).port}`);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { id } = await eventFor(receiver.url('/silent'));
    expect(await createWebhookDeliveryProcessor(deps)(run(id))).toMatchObject({ kind: 'retry' });
    expect(await rowOf(id)).toMatchObject({ lastHttpStatus: null, lastError: 'No answer within 1.5 s.' });
  });

  it('drops an event’s delivery to an endpoint turned off meanwhile, but sends a test to it', async () => {
    const { id, endpoint } = await eventFor(receiver.url('/ok'));
    await webhooks.updateEndpoint(endpoint.userId, endpoint.id, { enabled: false });
    expect(await createWebhookDeliveryProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 0, lastError: 'Not sent: the endpoint was turned off.' });
    const test = await webhooks.recordManual(endpoint.id, { eventId: randomUUID(), event: 'webhook.ping', payload: '{}' }, 'test');
    expect(await createWebhookDeliveryProcessor(deps)(run(test))).toEqual({ kind: 'done' });
    expect(receiver.received).toHaveLength(1);
  });

  it('fails a one-try delivery at its first failure without turning the endpoint off', async () => {
    const { endpoint } = await eventFor(receiver.url('/fail'));
    const test = await webhooks.recordManual(endpoint.id, { eventId: randomUUID(), event: 'webhook.ping', payload: '{}' }, 'test');
    expect(await createWebhookDeliveryProcessor(deps)(run(test))).toEqual({ kind: 'failed', message: 'Answered 500.' });
    expect((await webhooks.endpoint(endpoint.userId, endpoint.id))!.enabled).toBe(true);
  });

  describe('recovery sweep', () => {
    let producer: Redis;
    let jobs: WebhookJobs;

    beforeAll(async () => {
      producer = await connectProducerRedis(database.services.redisUrl);
      jobs = new WebhookJobs(createWebhookQueue(producer, database.services.prefix, log));
    });

    afterAll(async () => {
      await jobs?.close();
      producer?.disconnect();
    });

    it('queues an overdue delivery the queue does not hold, once', async () => {
      const { id } = await eventFor(receiver.url('/ok'));
      const later = Date.now() + 600_000;
      expect(await requeueOverdueDeliveries({ webhooks, jobs }, 60_000, later)).toBeGreaterThanOrEqual(1);
      const job = await jobs.queue.getJob(id);
      expect(job?.data).toEqual({ deliveryId: id });
      expect(job?.opts.attempts).toBe(SCHEDULE.length + 1);
      // Its job is waiting now: the next sweep leaves it be.
      expect(await jobs.requeue(id, 3)).toBe(false);
    });
  });
});
