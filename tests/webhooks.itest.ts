import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  webhookPayloadSchema,
  type UploadView,
  type WebhookDeliveryView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
  type WebhookPayload,
} from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from './support/webhook-receiver.js';

const PASSWORD = 'Secret123';
/** Three attempts within a second: the schedule a day long is the default, shortened here. */
const SCHEDULE = [300, 600];

// The service as it runs (an api process and a worker process on PostgreSQL), a real receiver on
// 127.0.0.1 that checks every signature, and a real SMTP server: receipts read by the worker, a
// correction and a failure reach the receiver signed; a failing receiver is retried, then its
// endpoint is turned off and its owner mailed.
describe('webhooks', () => {
  let deployment: Deployment;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let receipt: Buffer;

  beforeAll(async () => {
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    smtp = await startSmtpSink();
    receiver = await startWebhookReceiver();
    deployment = await Deployment.start('postgres', {
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://receipts.test',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
      WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE.join(','),
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  const send = <T>(v: Visitor, method: string, url: string, body?: unknown) =>
    v.json<T>(url, { method, ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }) });

  /** A confirmed account, signed in. */
  async function account() {
    const visitor = new Visitor(deployment.baseUrl, uniqueIp());
    const email = `hooks-${randomUUID()}@example.test`;
    await signUp(visitor, smtp, email, PASSWORD);
    return { visitor, email };
  }

  /** Registers the receiver's `path` for `events`; the receiver checks its deliveries with the secret the answer shows. */
  async function endpoint(visitor: Visitor, path: string, events: readonly string[] = WEBHOOK_EVENTS) {
    const created = await send<WebhookEndpointCreated>(visitor, 'POST', '/api/user/webhooks', { url: receiver.url(path), events });
    expect(created.status).toBe(201);
    receiver.expect(path, created.body.secret);
    return created.body;
  }

  /** The account the refusals are asked by, made once. */
  let registering: ReturnType<typeof account> | undefined;
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const bodyOf = (r: ReceivedDelivery): WebhookPayload => webhookPayloadSchema.parse(JSON.parse(r.body));
  /** The first delivery to `path` that `match` takes, once it has arrived. */
  const delivery = (path: string, match: (p: WebhookPayload) => boolean, what: string) =>
    until(async () => at(path).find((r) => match(bodyOf(r))), Boolean, what, { timeoutMs: 180_000 }).then((r) => r!);
  const log = (visitor: Visitor, id: string) => send<{ deliveries: WebhookDeliveryView[] }>(visitor, 'GET', `/api/user/webhooks/${id}/deliveries`).then((r) => r.body.deliveries);

  it('sends a receipt the worker read to the receiver, signed; an altered or replayed copy is refused there', async () => {
    const { visitor } = await account();
    const hook = await endpoint(visitor, '/ok');
    const upload = await visitor.upload(receipt, 'corner.jpg');
    expect(upload.status).toBe(202);
    const uploadId = upload.body.id as string;

    const completed = await delivery('/ok', (p) => p.type === 'receipt.completed' && p.data.uploadId === uploadId, 'the receipt.completed delivery');
    expect(completed.check).toMatchObject({ ok: true });
    expect(completed.status).toBe(200);
    expect(completed.headers['receipts-event']).toBe('receipt.completed');
    const { body: stored } = await visitor.json<UploadView>(`/api/uploads/${uploadId}`);
    expect(bodyOf(completed).data).toEqual({ uploadId, receiptId: stored.receipt!.id, filename: 'corner.jpg', receipt: stored.receipt });
    expect((bodyOf(completed).data as { receipt: { total: number } }).receipt.total).toBe(10.4);

    // The same signature on another body, or the same delivery five minutes and a second later.
    expect(await receiver.post('/ok', completed.body.replace('"total":10.4', '"total":1040'), completed.headers)).toBe(400);
    expect(at('/ok').at(-1)!.check).toEqual({ ok: false, reason: 'mismatch' });
    receiver.skewSeconds = 301;
    expect(await receiver.post('/ok', completed.body, completed.headers)).toBe(400);
    expect(at('/ok').at(-1)!.check).toEqual({ ok: false, reason: 'expired' });
    receiver.skewSeconds = 0;

    // A correction is an event of its own, with what changed.
    const receiptId = stored.receipt!.id;
    expect((await send(visitor, 'PATCH', `/api/receipts/${receiptId}`, { merchantName: 'Corner Hardware' })).status).toBe(200);
    const corrected = await delivery('/ok', (p) => p.type === 'receipt.corrected' && p.data.receiptId === receiptId, 'the receipt.corrected delivery');
    expect(corrected.check.ok).toBe(true);
    expect(bodyOf(corrected).data).toMatchObject({ uploadId, receipt: { merchantName: 'Corner Hardware' }, changes: { merchantName: { to: 'Corner Hardware' } } });

    // A file the worker cannot read fails its upload, and says why.
    const broken = await visitor.upload(Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from(randomUUID())]), 'broken.png');
    const failed = await delivery('/ok', (p) => p.type === 'receipt.failed' && p.data.uploadId === broken.body.id, 'the receipt.failed delivery');
    expect(failed.check.ok).toBe(true);
    expect(bodyOf(failed).data).toMatchObject({ filename: 'broken.png', error: expect.any(String) });

    // The log says how each went, newest first.
    const entries = await until(() => log(visitor, hook.id), (l) => l.length === 3 && l.every((d) => d.status === 'delivered'), 'three deliveries in the log');
    expect(entries.map((d) => d.event)).toEqual(['receipt.failed', 'receipt.corrected', 'receipt.completed']);
    expect(entries.every((d) => d.lastHttpStatus === 200 && d.attempts === 1 && d.responseTimeMs !== null)).toBe(true);

    // Sent again: the same event, signed anew.
    const again = await send<WebhookDeliveryView>(visitor, 'POST', `/api/user/webhooks/${hook.id}/deliveries/${entries[2]!.id}/redeliver`);
    expect(again.status).toBe(202);
    const copies = await until(async () => at('/ok').filter((r) => r.check.ok && bodyOf(r).id === entries[2]!.eventId), (c) => c.length === 2, 'the redelivery');
    expect(copies[1]!.body).toBe(copies[0]!.body);
  });

  it('tries a failing receiver again, then turns its endpoint off and mails the owner, who turns it on again', async () => {
    const { visitor, email } = await account();
    const hook = await endpoint(visitor, '/fail', ['receipt.completed']);
    const upload = await visitor.upload(receipt, 'retry.jpg');
    const uploadId = upload.body.id as string;
    const tries = await until(
      async () =>
        at('/fail').filter((r) => {
          const p = bodyOf(r);
          return p.type === 'receipt.completed' && p.data.uploadId === uploadId;
        }),
      (t) => t.length === SCHEDULE.length + 1,
      'every attempt of the delivery',
      { timeoutMs: 180_000 },
    );
    expect(tries.every((t) => t.check.ok && t.status === 500)).toBe(true);
    // One event, one body, whatever the attempt: only the signature's time changes.
    expect(new Set(tries.map((t) => t.body)).size).toBe(1);

    const [mail] = await smtp.mailsTo(email, 2).then((mails) => mails.filter((m) => m.decoded.includes(WEBHOOK_MESSAGES.disabledMailSubject)));
    expect(mail, 'the mail about the endpoint turned off').toBeDefined();
    expect(mail!.decoded).toContain(receiver.url('/fail'));
    expect(mail!.decoded).toContain('http://receipts.test/account');

    const { body } = await send<{ endpoints: WebhookEndpointView[] }>(visitor, 'GET', '/api/user/webhooks');
    expect(body.endpoints).toEqual([expect.objectContaining({ id: hook.id, enabled: false, disabledReason: WEBHOOK_MESSAGES.disabledByFailures('receipt.completed', 'Answered 500.') })]);
    expect(await log(visitor, hook.id)).toEqual([
      expect.objectContaining({ event: 'receipt.completed', status: 'failed', attempts: 3, maxAttempts: 3, lastHttpStatus: 500, lastError: 'Answered 500.' }),
    ]);

    expect(await send(visitor, 'PATCH', `/api/user/webhooks/${hook.id}`, { enabled: true })).toMatchObject({ status: 200, body: { enabled: true, disabledReason: null } });
  });

  it('counts a redirect to a private address as a failed delivery and does not follow it', async () => {
    const { visitor } = await account();
    const hook = await endpoint(visitor, '/redirect');
    expect((await send(visitor, 'POST', `/api/user/webhooks/${hook.id}/test`)).status).toBe(202);
    const [test] = await until(() => log(visitor, hook.id), (l) => l[0]?.status === 'failed', 'the test delivery to fail');
    expect(test).toMatchObject({ event: 'webhook.ping', attempts: 1, lastHttpStatus: 302, lastError: 'Answered 302 to http://10.0.0.1/internal; redirects are not followed.' });
    expect(at('/redirect')).toHaveLength(1);
    expect(at('/redirect')[0]!.check.ok).toBe(true);
  });

  it.each([
    ['a private address', 'http://10.0.0.1/hooks', 'Webhooks cannot be sent to 10.0.0.1: it is a private network address.'],
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/', 'Webhooks cannot be sent to 169.254.169.254: it is the cloud metadata service.'],
    ['IPv6 loopback', 'http://[::1]:8080/', 'Webhooks cannot be sent to ::1: it is a loopback address.'],
  ])('refuses to register %s', async (_case, url, message) => {
    registering ??= account();
    const { visitor } = await registering;
    expect(await send(visitor, 'POST', '/api/user/webhooks', { url, events: ['receipt.completed'] })).toEqual({ status: 400, body: { error: 'VALIDATION_FAILED', message } });
  });
});
