import { randomUUID } from 'node:crypto';
import type { WebhookData, WebhookEvent } from '@receipts/common';
import type { Logger } from './logger.js';
import { metrics } from './metrics.js';
import type { WebhookJobs } from './webhook-queue.js';
import type { WebhookRepository } from './webhook.repository.js';

/** Emits an account's events: what the code that changes a receipt or an upload calls once the change is stored. */
export interface WebhookEmitter {
  emit<E extends WebhookEvent>(userId: string | null, event: E, data: WebhookData[E]): Promise<void>;
}

/**
 * Where an event becomes webhook deliveries: written to PostgreSQL (one row per endpoint that
 * wants it, the record nothing loses), then queued. Called where the change happens, after it
 * is stored; never throws, so no receipt, failure, cancel or correction fails for its webhooks.
 * A delivery that could not be queued (Redis down) says so on its row and is queued by the
 * recovery sweep; an event whose rows could not be written is logged and counted.
 */
export class WebhookEvents implements WebhookEmitter {
  constructor(
    private readonly deps: {
      webhooks: Pick<WebhookRepository, 'recordEvent' | 'notQueued'>;
      jobs: Pick<WebhookJobs, 'enqueue'>;
      /** Attempts an event's delivery gets (webhookAttempts of the schedule). */
      attempts: number;
      log: Logger;
    },
  ) {}

  async emit<E extends WebhookEvent>(userId: string | null, event: E, data: WebhookData[E]): Promise<void> {
    // Only accounts have endpoints; an anonymous visitor's uploads emit nothing.
    if (!userId) return;
    const { webhooks, attempts, log } = this.deps;
    const eventId = randomUUID();
    let ids: string[];
    try {
      const payload = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data });
      ids = await webhooks.recordEvent(userId, { eventId, event, payload }, attempts);
    } catch (err) {
      metrics.webhookEventsNotRecorded.inc({ event });
      log.error({ err, event, userId }, 'webhook deliveries not recorded; the event is lost to webhooks');
      return;
    }
    await Promise.all(ids.map((id) => this.queue(id)));
  }

  private async queue(deliveryId: string): Promise<void> {
    const { webhooks, jobs, attempts, log } = this.deps;
    try {
      await jobs.enqueue(deliveryId, attempts);
    } catch (err) {
      log.warn({ err, deliveryId }, 'webhook delivery not queued; the recovery sweep queues it');
      await webhooks
        .notQueued(deliveryId, `Not queued yet (${(err as Error).message}); it is sent once the queue answers.`)
        .catch((noted: unknown) => log.warn({ err: noted, deliveryId }, 'unqueued webhook delivery not noted'));
    }
  }
}
