import { randomUUID } from 'node:crypto';
import { WEBHOOK_MESSAGES, type WebhookEvent } from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { UserRepository } from './user.repository.js';
import { WebhookRepository, type WebhookAttempt } from './webhook.repository.js';

// Real PostgreSQL, and the embedded PGlite: who gets an event, the endpoint limit, and when a
// failed delivery turns its endpoint off are statements of their own.
describe.each(['postgres', 'pglite'] as const)('webhook repository on %s', { timeout: 60_000 }, (kind) => {
  let database: TestDatabase;
  let users: UserRepository;
  let webhooks: WebhookRepository;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    users = new UserRepository(database.db);
    webhooks = new WebhookRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  async function account() {
    const email = `${randomUUID()}@example.test`;
    return { id: (await users.insert({ email, username: 'u', passwordHash: 'x' }))!.id, email };
  }

  const endpoint = async (userId: string, events: WebhookEvent[] = ['receipt.completed']) =>
    (await webhooks.createEndpoint({ userId, url: 'https://hooks.example.com/in', events, secret: 'whsec_x' }, 10))!;

  const body = (event: WebhookEvent = 'receipt.completed') => ({ eventId: randomUUID(), event, payload: JSON.stringify({ type: event }) });
  const failedAttempt = (at = new Date()): WebhookAttempt => ({ at, httpStatus: 500, responseTimeMs: 12, error: 'Answered 500.' });

  it('writes an event once for each of the user’s endpoints that is on and chose it', async () => {
    const owner = await account();
    const other = await account();
    const completed = await endpoint(owner.id, ['receipt.completed', 'receipt.failed']);
    await endpoint(owner.id, ['receipt.failed']);
    const off = await endpoint(owner.id, ['receipt.completed']);
    await webhooks.updateEndpoint(owner.id, off.id, { enabled: false });
    await endpoint(other.id, ['receipt.completed']);

    const sent = body();
    const ids = await webhooks.recordEvent(owner.id, sent, 10);
    expect(ids).toHaveLength(1);
    const [delivery] = await webhooks.deliveries(completed.id, 50);
    expect(delivery).toMatchObject({ id: ids[0], eventId: sent.eventId, event: 'receipt.completed', trigger: 'event', status: 'pending', attempts: 0, maxAttempts: 10, payload: sent.payload });
    expect(await webhooks.recordEvent(owner.id, body('receipt.failed'), 10)).toHaveLength(2);
    expect(await webhooks.recordEvent(owner.id, body('upload.cancelled'), 10)).toEqual([]);
  });

  it('holds an account to its number of endpoints', async () => {
    const owner = await account();
    for (let i = 0; i < 2; i++) expect(await webhooks.createEndpoint({ userId: owner.id, url: `https://h${i}.example.com`, events: ['receipt.completed'], secret: 's' }, 2)).not.toBeNull();
    expect(await webhooks.createEndpoint({ userId: owner.id, url: 'https://h3.example.com', events: ['receipt.completed'], secret: 's' }, 2)).toBeNull();
  });

  it('changes, turns off and on, and deletes only the owner’s endpoint', async () => {
    const owner = await account();
    const stranger = await account();
    const row = await endpoint(owner.id);
    expect(await webhooks.updateEndpoint(stranger.id, row.id, { enabled: false })).toBeNull();
    expect(await webhooks.removeEndpoint(stranger.id, row.id)).toBe(false);
    expect(await webhooks.updateEndpoint(owner.id, row.id, { enabled: false, events: ['receipt.corrected'] })).toMatchObject({
      enabled: false,
      events: ['receipt.corrected'],
      disabledReason: WEBHOOK_MESSAGES.disabledByUser,
    });
    expect(await webhooks.updateEndpoint(owner.id, row.id, { enabled: true })).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    await webhooks.recordEvent(owner.id, body('receipt.corrected'), 10);
    expect(await webhooks.removeEndpoint(owner.id, row.id)).toBe(true);
    // Its deliveries go with it.
    expect(await webhooks.deliveries(row.id, 50)).toEqual([]);
  });

  it('counts attempts and keeps the last one’s status, time and error', async () => {
    const owner = await account();
    const row = await endpoint(owner.id);
    const [id] = await webhooks.recordEvent(owner.id, body(), 3);
    const next = new Date(Date.now() + 60_000);
    await webhooks.retrying(id!, failedAttempt(), next);
    expect((await webhooks.forSending(id!))!.delivery).toMatchObject({ status: 'retrying', attempts: 1, lastHttpStatus: 500, responseTimeMs: 12, lastError: 'Answered 500.', nextAttemptAt: next });
    const at = new Date();
    await webhooks.delivered(id!, { at, httpStatus: 204, responseTimeMs: 5, error: null });
    const { delivery, endpoint: sentTo } = (await webhooks.forSending(id!))!;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastHttpStatus: 204, lastError: null, deliveredAt: at, nextAttemptAt: null });
    expect(sentTo).toEqual({ id: row.id, userId: owner.id, url: row.url, secret: 'whsec_x', enabled: true });
    // A finished delivery takes no more attempts.
    await webhooks.retrying(id!, failedAttempt(), next);
    expect((await webhooks.forSending(id!))!.delivery.status).toBe('delivered');
  });

  it('turns an endpoint off when an event’s delivery gives up and nothing reached it since, and says whom to tell', async () => {
    const owner = await account();
    const row = await endpoint(owner.id);
    const [id] = await webhooks.recordEvent(owner.id, body(), 1);
    const disabled = await webhooks.gaveUp(id!, failedAttempt(), 'gave up');
    expect(disabled).toMatchObject({ email: owner.email, endpoint: { id: row.id, enabled: false, disabledReason: 'gave up' } });
    expect((await webhooks.forSending(id!))!.delivery).toMatchObject({ status: 'failed', attempts: 1 });
    // Given up twice (a job run again): nothing more happens.
    expect(await webhooks.gaveUp(id!, failedAttempt(), 'gave up')).toBeNull();
  });

  it('leaves an endpoint on when something reached it after the failed event, or when the failure was a test', async () => {
    const owner = await account();
    const row = await endpoint(owner.id);
    const [failing] = await webhooks.recordEvent(owner.id, body(), 1);
    const later = await webhooks.recordManual(row.id, body(), 'test');
    await webhooks.delivered(later, { at: new Date(), httpStatus: 200, responseTimeMs: 3, error: null });
    expect(await webhooks.gaveUp(failing!, failedAttempt(), 'gave up')).toBeNull();
    const test = await webhooks.recordManual(row.id, body(), 'test');
    expect(await webhooks.gaveUp(test, failedAttempt(), 'gave up')).toBeNull();
    expect((await webhooks.endpoint(owner.id, row.id))!.enabled).toBe(true);
  });

  it('drops an event’s delivery without an attempt, and lists the deliveries overdue for the sweep', async () => {
    const owner = await account();
    await endpoint(owner.id);
    const [dropped, waiting, retrying] = await Promise.all([1, 2, 3].map(() => webhooks.recordEvent(owner.id, body(), 3).then((ids) => ids[0]!)));
    await webhooks.dropped(dropped!, 'Not sent: the endpoint was turned off.');
    expect((await webhooks.forSending(dropped!))!.delivery).toMatchObject({ status: 'failed', attempts: 0, lastError: 'Not sent: the endpoint was turned off.' });
    await webhooks.retrying(retrying!, failedAttempt(), new Date(Date.now() + 3600_000));
    await webhooks.notQueued(waiting!, 'Not queued yet.');
    const overdue = (await webhooks.overdue(new Date(Date.now() + 60_000), 1000)).map((d) => d.id);
    // Pending since before the cut: overdue. Retrying at a time after it, or failed: not.
    expect(overdue).toContain(waiting);
    expect(overdue).not.toContain(retrying);
    expect(overdue).not.toContain(dropped);
    expect((await webhooks.forSending(waiting!))!.delivery.lastError).toBe('Not queued yet.');
    expect((await webhooks.overdue(new Date(Date.now() - 60_000), 1000)).map((d) => d.id)).not.toContain(waiting);
  });
});
