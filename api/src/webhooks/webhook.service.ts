import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERY_LOG_SIZE,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_MESSAGES,
  WEBHOOK_PING,
  WEBHOOK_SECRET_PREFIX,
  type WebhookDeliveryView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
  type WebhookEvent,
} from '@receipts/common';
import {
  resolveWebhookDestination,
  WebhookDestinationError,
  type HostResolver,
  type Logger,
  type WebhookBody,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookJobs,
  type WebhookPolicy,
  type UserRow,
  type WebhookRepository,
} from '@receipts/infra';
import type { AccountService } from '../auth/account.service.js';
import { HttpError, notFound } from '../http-error.js';

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const toEndpointView = (row: WebhookEndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  disabledAt: iso(row.disabledAt),
  createdAt: row.createdAt.toISOString(),
});

export const toDeliveryView = (row: WebhookDeliveryRow): WebhookDeliveryView => ({
  id: row.id,
  eventId: row.eventId,
  event: row.event,
  trigger: row.trigger,
  status: row.status,
  attempts: row.attempts,
  maxAttempts: row.maxAttempts,
  lastHttpStatus: row.lastHttpStatus,
  responseTimeMs: row.responseTimeMs,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: iso(row.lastAttemptAt),
  nextAttemptAt: iso(row.nextAttemptAt),
  deliveredAt: iso(row.deliveredAt),
});

/** A signing secret: 192 random bits after the prefix. */
const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;

export interface WebhookServiceDeps {
  webhooks: WebhookRepository;
  /** Queues the deliveries the user asks for (a redelivery, a test); the worker sends them. */
  jobs: Pick<WebhookJobs, 'enqueue'>;
  policy: WebhookPolicy;
  /** The host names' resolver (the system's unless a test gives one). */
  resolve?: HostResolver;
  /** Who counts as confirmed: only a proven address sends its receipts' events elsewhere. */
  accounts: Pick<AccountService, 'isEmailVerified'>;
  log: Logger;
}

/**
 * The account page's webhooks: endpoints registered (their address checked, their secret made
 * and shown once), changed, turned on and off and deleted; their delivery log; a delivery sent
 * again, or a test sent. Another account's endpoint or delivery is "not found".
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async list(userId: string): Promise<WebhookEndpointView[]> {
    return (await this.deps.webhooks.listEndpoints(userId)).map(toEndpointView);
  }

  /**
   * Registers an endpoint once its address passes the checks every delivery makes again (its
   * name resolved now): the answer is the only one that shows its secret.
   */
  async create(user: UserRow, input: { url: string; events: WebhookEvent[] }): Promise<WebhookEndpointCreated> {
    if (!this.deps.accounts.isEmailVerified(user)) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', WEBHOOK_MESSAGES.confirmBeforeRegistering);
    const userId = user.id;
    try {
      await resolveWebhookDestination(input.url, this.deps.policy, this.deps.resolve);
    } catch (err) {
      if (err instanceof WebhookDestinationError) throw new HttpError(400, 'VALIDATION_FAILED', err.message);
      throw err;
    }
    const secret = newSecret();
    const row = await this.deps.webhooks.createEndpoint({ userId, url: input.url, events: input.events, secret }, WEBHOOK_ENDPOINTS_MAX);
    if (!row) throw new HttpError(409, 'CONFLICT', WEBHOOK_MESSAGES.tooMany);
    return { ...toEndpointView(row), secret };
  }

  async update(userId: string, id: string, change: { events?: WebhookEvent[]; enabled?: boolean }): Promise<WebhookEndpointView> {
    const row = await this.deps.webhooks.updateEndpoint(userId, id, change);
    if (!row) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
    return toEndpointView(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.deps.webhooks.removeEndpoint(userId, id))) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
  }

  /** The endpoint's latest deliveries, newest first. */
  async deliveries(userId: string, id: string): Promise<WebhookDeliveryView[]> {
    const endpoint = await this.endpoint(userId, id);
    return (await this.deps.webhooks.deliveries(endpoint.id, WEBHOOK_DELIVERY_LOG_SIZE)).map(toDeliveryView);
  }

  /** Sends a delivery's event again, the same body under a delivery of its own, tried once. */
  async redeliver(userId: string, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const endpoint = await this.endpoint(userId, id);
    const earlier = await this.deps.webhooks.delivery(endpoint.id, deliveryId);
    if (!earlier) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    return this.send(endpoint.id, { eventId: earlier.eventId, event: earlier.event, payload: earlier.payload }, 'redelivery');
  }

  /** Sends a `webhook.ping` to the endpoint, tried once, whether it is on or off (a check before turning it on again). */
  async test(userId: string, id: string): Promise<WebhookDeliveryView> {
    const endpoint = await this.endpoint(userId, id);
    const eventId = randomUUID();
    const payload = JSON.stringify({ id: eventId, type: WEBHOOK_PING, createdAt: new Date().toISOString(), data: { endpointId: endpoint.id, message: WEBHOOK_MESSAGES.ping } });
    return this.send(endpoint.id, { eventId, event: WEBHOOK_PING, payload }, 'test');
  }

  private async endpoint(userId: string, id: string): Promise<WebhookEndpointRow> {
    const endpoint = await this.deps.webhooks.endpoint(userId, id);
    if (!endpoint) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
    return endpoint;
  }

  /** Records the delivery, then queues it; one Redis would not take is noted on its row and queued by the worker's recovery sweep. */
  private async send(endpointId: string, body: WebhookBody, trigger: 'redelivery' | 'test'): Promise<WebhookDeliveryView> {
    const { webhooks, jobs, log } = this.deps;
    const id = await webhooks.recordManual(endpointId, body, trigger);
    await jobs.enqueue(id, 1).catch(async (err: unknown) => {
      log.warn({ err, deliveryId: id }, 'webhook delivery not queued; the recovery sweep queues it');
      await webhooks.notQueued(id, `Not queued yet (${(err as Error).message}); it is sent once the queue answers.`);
    });
    return toDeliveryView((await webhooks.delivery(endpointId, id))!);
  }
}
