import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERY_LOG_SIZE,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_MESSAGES,
  webhookCreateSchema,
  webhookPayloadSchema,
  webhookUpdateSchema,
  type WebhookDeliveryView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
} from '@receipts/common';
import { createWebhookQueue, WebhookJobs, WebhookRepository } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';

const badId = { status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } };
const notFound = (message: string) => ({ status: 404, body: { error: 'NOT_FOUND', message } });
const RECEIVER = 'http://127.0.0.1:9/hooks';

// /api/user/webhooks over HTTP on the real api, database and queue (no worker sends here), with
// 127.0.0.1 allowed as the tests' receivers are.
describe('/api/user/webhooks routes', () => {
  const api = withRouteApi({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' });
  let user: Caller;
  let jobs: WebhookJobs;

  beforeAll(async () => {
    user = await api.signedIn();
    jobs = new WebhookJobs(createWebhookQueue(api.runtime.publisher, api.runtime.config.QUEUE_PREFIX, api.runtime.log));
  }, 120_000);

  afterAll(async () => {
    await jobs?.close();
  });

  const register = async (owner: Caller, body: unknown = { url: RECEIVER, events: ['receipt.completed'] }) => {
    const created = await owner.post<WebhookEndpointCreated>('/api/user/webhooks', body);
    if (created.status !== 201) throw new Error(`register: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body;
  };
  const deliveries = async (owner: Caller, id: string) => (await owner.get<{ deliveries: WebhookDeliveryView[] }>(`/api/user/webhooks/${id}/deliveries`)).body.deliveries;

  it.each([
    ['GET', '/api/user/webhooks'],
    ['POST', '/api/user/webhooks'],
    ['PATCH', `/api/user/webhooks/${randomUUID()}`],
    ['DELETE', `/api/user/webhooks/${randomUUID()}`],
    ['GET', `/api/user/webhooks/${randomUUID()}/deliveries`],
    ['POST', `/api/user/webhooks/${randomUUID()}/deliveries/${randomUUID()}/redeliver`],
    ['POST', `/api/user/webhooks/${randomUUID()}/test`],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, { url: RECEIVER, events: ['receipt.completed'] })).toMatchObject({
      status: 401,
      body: { error: 'UNAUTHENTICATED', message: 'Authentication required' },
    });
  });

  it('refuses to register an endpoint for an account whose address is not confirmed', async () => {
    const unconfirmed = await api.signedIn('unconfirmed');
    expect(await unconfirmed.post('/api/user/webhooks', { url: RECEIVER, events: ['receipt.completed'] })).toMatchObject({
      status: 403,
      body: { error: 'EMAIL_NOT_VERIFIED', message: WEBHOOK_MESSAGES.confirmBeforeRegistering },
    });
    expect((await unconfirmed.get('/api/user/webhooks')).body).toEqual({ endpoints: [] });
  });

  it('registers an endpoint and shows its secret in that answer only', async () => {
    const created = await register(user, { url: ` ${RECEIVER} `, events: ['receipt.failed', 'receipt.completed', 'receipt.failed'] });
    expect(created).toMatchObject({ url: RECEIVER, events: ['receipt.completed', 'receipt.failed'], enabled: true, disabledReason: null });
    expect(created.secret).toMatch(/^whsec_[\w-]{32}$/);
    expect((await register(user)).secret).not.toBe(created.secret);
    const list = await user.get<{ endpoints: WebhookEndpointView[] }>('/api/user/webhooks');
    expect(list.status).toBe(200);
    const { secret: _shownOnce, ...view } = created;
    expect(list.body.endpoints).toContainEqual(view);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    // Another account sees none of them.
    expect((await (await api.signedIn()).get('/api/user/webhooks')).body).toEqual({ endpoints: [] });
  });

  it('refuses what the form gets wrong, in the schema’s words', async () => {
    for (const body of [{}, { url: '', events: ['receipt.completed'] }, { url: 'ftp://example.com/', events: ['receipt.completed'] }, { url: RECEIVER, events: [] }, { url: RECEIVER, events: ['receipt.exploded'] }, { url: 'https://u:p@example.com/', events: ['receipt.completed'] }]) {
      expect(await user.post('/api/user/webhooks', body)).toEqual(expect.objectContaining(invalid(webhookCreateSchema, body)));
    }
  });

  it.each([
    ['a private address', 'http://10.0.0.1/hooks', 'Webhooks cannot be sent to 10.0.0.1: it is a private network address.'],
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/', 'Webhooks cannot be sent to 169.254.169.254: it is the cloud metadata service.'],
    ['IPv6 loopback', 'http://[::1]:8080/', 'Webhooks cannot be sent to ::1: it is a loopback address.'],
    ['an IPv4-mapped private address', 'http://[::ffff:192.168.1.1]/', 'Webhooks cannot be sent to ::ffff:c0a8:101: it is a private network address.'],
    ['loopback outside the allowed network', 'http://127.0.0.2/', 'Webhooks cannot be sent to 127.0.0.2: it is a loopback address.'],
  ])('refuses to register %s', async (_case, url, message) => {
    expect(await user.post('/api/user/webhooks', { url, events: ['receipt.completed'] })).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED', message } });
  });

  it(`holds an account to ${WEBHOOK_ENDPOINTS_MAX} endpoints`, async () => {
    const owner = await api.signedIn();
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) await register(owner);
    expect(await owner.post('/api/user/webhooks', { url: RECEIVER, events: ['receipt.completed'] })).toMatchObject({
      status: 409,
      body: { error: 'CONFLICT', message: WEBHOOK_MESSAGES.tooMany },
    });
  });

  it('changes the events, turns the endpoint off and on, and deletes it: the owner’s only', async () => {
    const endpoint = await register(user);
    const url = `/api/user/webhooks/${endpoint.id}`;
    for (const body of [{}, { events: [] }, { enabled: 'yes' }]) {
      expect(await user.patch(url, body)).toEqual(expect.objectContaining(invalid(webhookUpdateSchema, body)));
    }
    expect(await user.patch('/api/user/webhooks/42', { enabled: false })).toMatchObject(badId);
    expect(await user.patch(url, { events: ['upload.cancelled'], enabled: false })).toMatchObject({
      status: 200,
      body: { events: ['upload.cancelled'], enabled: false, disabledReason: WEBHOOK_MESSAGES.disabledByUser },
    });
    expect(await user.patch(url, { enabled: true })).toMatchObject({ status: 200, body: { enabled: true, disabledReason: null, disabledAt: null } });

    const stranger = await api.signedIn();
    expect(await stranger.patch(url, { enabled: false })).toMatchObject(notFound(WEBHOOK_MESSAGES.endpointNotFound));
    expect(await stranger.delete(url)).toMatchObject(notFound(WEBHOOK_MESSAGES.endpointNotFound));
    expect(await stranger.get(`${url}/deliveries`)).toMatchObject(notFound(WEBHOOK_MESSAGES.endpointNotFound));
    expect(await stranger.post(`${url}/test`)).toMatchObject(notFound(WEBHOOK_MESSAGES.endpointNotFound));

    expect(await user.delete(url)).toMatchObject({ status: 204 });
    expect(await user.delete(url)).toMatchObject(notFound(WEBHOOK_MESSAGES.endpointNotFound));
  });

  it('queues a test delivery, shown in the log', async () => {
    const endpoint = await register(user);
    const test = await user.post<WebhookDeliveryView>(`/api/user/webhooks/${endpoint.id}/test`);
    expect(test).toMatchObject({ status: 202, body: { event: 'webhook.ping', trigger: 'test', status: 'pending', attempts: 0, maxAttempts: 1 } });
    expect(await deliveries(user, endpoint.id)).toEqual([test.body]);
    expect((await jobs.queue.getJob(test.body.id))?.data).toEqual({ deliveryId: test.body.id });
  });

  it('records a correction and a cancel as events, and sends an event again under a delivery of its own', async () => {
    const endpoint = await register(user, { url: RECEIVER, events: ['receipt.corrected', 'upload.cancelled'] });
    const receiptId = await api.receipt(user, { merchantName: 'Corner Shop', total: 12.5 });
    expect((await user.patch(`/api/receipts/${receiptId}`, { merchantName: 'Corner Store' })).status).toBe(200);
    // Nothing changed: no event.
    expect((await user.patch(`/api/receipts/${receiptId}`, { merchantName: 'Corner Store' })).status).toBe(200);
    const [corrected] = await deliveries(user, endpoint.id);
    expect(corrected).toMatchObject({ event: 'receipt.corrected', trigger: 'event', status: 'pending', maxAttempts: 10 });
    const rows = new WebhookRepository(api.runtime.db);
    const body = webhookPayloadSchema.parse(JSON.parse((await rows.delivery(endpoint.id, corrected!.id))!.payload));
    expect(body).toMatchObject({
      id: corrected!.eventId,
      type: 'receipt.corrected',
      data: { receiptId, receipt: { id: receiptId, merchantName: 'Corner Store' }, changes: { merchantName: { from: 'Corner Shop', to: 'Corner Store' } } },
    });

    const form = new FormData();
    form.append('file', new Blob([Buffer.from(`\x89PNG\r\n\x1a\n${randomUUID()}`, 'latin1')]), 'cancel-me.png');
    const upload = await user.post('/api/ocr', form);
    expect((await user.post(`/api/ocr/cancel/${upload.body.id}`)).status).toBe(200);
    const latest = await deliveries(user, endpoint.id);
    expect(latest.map((d) => d.event)).toEqual(['upload.cancelled', 'receipt.corrected']);
    const cancelled = webhookPayloadSchema.parse(JSON.parse((await rows.delivery(endpoint.id, latest[0]!.id))!.payload));
    expect(cancelled.data).toEqual({ uploadId: upload.body.id, filename: 'cancel-me.png', status: 'cancelled' });

    const again = await user.post<WebhookDeliveryView>(`/api/user/webhooks/${endpoint.id}/deliveries/${corrected!.id}/redeliver`);
    expect(again).toMatchObject({ status: 202, body: { eventId: corrected!.eventId, event: 'receipt.corrected', trigger: 'redelivery', maxAttempts: 1 } });
    expect(again.body.id).not.toBe(corrected!.id);
    expect((await rows.delivery(endpoint.id, again.body.id))!.payload).toBe((await rows.delivery(endpoint.id, corrected!.id))!.payload);
    expect((await jobs.queue.getJob(again.body.id))?.data).toEqual({ deliveryId: again.body.id });

    const redeliver = (id: string) => user.post(`/api/user/webhooks/${endpoint.id}/deliveries/${id}/redeliver`);
    expect(await redeliver(randomUUID())).toMatchObject(notFound(WEBHOOK_MESSAGES.deliveryNotFound));
    expect(await redeliver('42')).toMatchObject(badId);
    // Another endpoint's delivery is not this one's to send again.
    const other = await register(user);
    expect(await user.post(`/api/user/webhooks/${other.id}/deliveries/${corrected!.id}/redeliver`)).toMatchObject(notFound(WEBHOOK_MESSAGES.deliveryNotFound));
  });

  it(`shows the latest ${WEBHOOK_DELIVERY_LOG_SIZE} deliveries, newest first`, async () => {
    const endpoint = await register(user);
    const rows = new WebhookRepository(api.runtime.db);
    const ids: string[] = [];
    for (let i = 0; i < WEBHOOK_DELIVERY_LOG_SIZE + 2; i++) ids.push(await rows.recordManual(endpoint.id, { eventId: randomUUID(), event: 'webhook.ping', payload: '{}' }, 'test'));
    const log = await deliveries(user, endpoint.id);
    expect(log.map((d) => d.id)).toEqual(ids.reverse().slice(0, WEBHOOK_DELIVERY_LOG_SIZE));
  });
});
