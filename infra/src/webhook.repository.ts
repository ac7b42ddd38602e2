import { WEBHOOK_MESSAGES, type WebhookDeliveryType, type WebhookEvent, type WebhookTrigger } from '@receipts/common';
import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { users, webhookDeliveries, webhookEndpoints, type WebhookDeliveryRow, type WebhookEndpointRow } from './db/schema.js';

export interface NewWebhookEndpoint {
  userId: string;
  url: string;
  events: WebhookEvent[];
  secret: string;
}

/** A delivery's body and the event it carries. */
export interface WebhookBody {
  eventId: string;
  event: WebhookDeliveryType;
  /** The JSON text sent. */
  payload: string;
}

/** How one attempt went: the receiver's status and time, or why it got none. */
export interface WebhookAttempt {
  at: Date;
  httpStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
}

/** What sending a delivery needs: its row and its endpoint's address, secret and state. */
export interface DeliveryToSend {
  delivery: WebhookDeliveryRow;
  endpoint: Pick<WebhookEndpointRow, 'id' | 'userId' | 'url' | 'secret' | 'enabled'>;
}

/** An endpoint a delivery's last failure turned off, with the address its owner is told at. */
export interface DisabledEndpoint {
  endpoint: WebhookEndpointRow;
  email: string;
}

/** The deliveries still to finish: not tried yet, or waiting for their next try. */
const OPEN = ['pending', 'retrying'] as const;

/**
 * Webhooks: an account's endpoints, and each delivery of an event to one of them with how its
 * attempts went. The api registers, lists and changes endpoints and asks for (re)deliveries; an
 * event's emission writes its deliveries; the worker sends them and records each attempt here.
 */
export class WebhookRepository {
  constructor(private readonly db: Database) {}

  listEndpoints(userId: string): Promise<WebhookEndpointRow[]> {
    return this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  }

  async endpoint(userId: string, id: string): Promise<WebhookEndpointRow | null> {
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
    return row ?? null;
  }

  /** Registers an endpoint; null when the account has `max` already (counted under a lock on the account, so two at once cannot pass it). */
  async createEndpoint(endpoint: NewWebhookEndpoint, max: number): Promise<WebhookEndpointRow | null> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, endpoint.userId)).for('update');
      const [held] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, endpoint.userId));
      if ((held?.n ?? 0) >= max) return null;
      const [row] = await tx.insert(webhookEndpoints).values(endpoint).returning();
      return row!;
    });
  }

  /**
   * Changes an endpoint's events, or turns it on (clearing why it was off) or off (by the user);
   * null when the user has no such endpoint.
   */
  async updateEndpoint(userId: string, id: string, change: { events?: WebhookEvent[]; enabled?: boolean }): Promise<WebhookEndpointRow | null> {
    const now = new Date();
    const state =
      change.enabled === undefined
        ? {}
        : change.enabled
          ? { enabled: true, disabledReason: null, disabledAt: null }
          : { enabled: false, disabledReason: WEBHOOK_MESSAGES.disabledByUser, disabledAt: now };
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ ...(change.events ? { events: change.events } : {}), ...state, updatedAt: now })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .returning();
    return row ?? null;
  }

  /** Deletes an endpoint and its deliveries; false when the user has no such endpoint. */
  async removeEndpoint(userId: string, id: string): Promise<boolean> {
    const gone = await this.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .returning({ id: webhookEndpoints.id });
    return gone.length > 0;
  }

  /**
   * Writes the deliveries of an event of the user's: one to each endpoint that is on and chose
   * it, all with the same body. The endpoints are locked for the statement, so one deleted
   * meanwhile is either written to or gone, never a failed insert. Their ids (none when no
   * endpoint wants it).
   */
  async recordEvent(userId: string, body: WebhookBody & { event: WebhookEvent }, maxAttempts: number): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const wanting = await tx
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.events} @> ${JSON.stringify([body.event])}::jsonb`))
        .for('share');
      if (wanting.length === 0) return [];
      const rows = await tx
        .insert(webhookDeliveries)
        .values(wanting.map(({ id }) => ({ endpointId: id, ...body, trigger: 'event' as const, maxAttempts })))
        .returning({ id: webhookDeliveries.id });
      return rows.map((r) => r.id);
    });
  }

  /** A delivery the user asked for (a redelivery or a test): tried once. Its id. */
  async recordManual(endpointId: string, body: WebhookBody, trigger: Exclude<WebhookTrigger, 'event'>): Promise<string> {
    const [row] = await this.db
      .insert(webhookDeliveries)
      .values({ endpointId, ...body, trigger, maxAttempts: 1 })
      .returning({ id: webhookDeliveries.id });
    return row!.id;
  }

  /** The endpoint's latest deliveries, newest first. */
  deliveries(endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit);
  }

  async delivery(endpointId: string, id: string): Promise<WebhookDeliveryRow | null> {
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
    return row ?? null;
  }

  async forSending(id: string): Promise<DeliveryToSend | null> {
    const [row] = await this.db
      .select({
        delivery: webhookDeliveries,
        endpoint: { id: webhookEndpoints.id, userId: webhookEndpoints.userId, url: webhookEndpoints.url, secret: webhookEndpoints.secret, enabled: webhookEndpoints.enabled },
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id));
    return row ?? null;
  }

  /** Records an attempt that was answered 2xx. */
  async delivered(id: string, attempt: WebhookAttempt): Promise<void> {
    await this.recordAttempt(id, attempt, { status: 'delivered', deliveredAt: attempt.at, nextAttemptAt: null });
  }

  /** Records a failed attempt that is tried again at `nextAttemptAt`. */
  async retrying(id: string, attempt: WebhookAttempt, nextAttemptAt: Date): Promise<void> {
    await this.recordAttempt(id, attempt, { status: 'retrying', nextAttemptAt });
  }

  /**
   * Records the last failed attempt of a delivery, and for an event's delivery turns its
   * endpoint off when nothing was delivered to it since that event happened (a day of failures,
   * README "Webhooks"). The endpoint turned off, with its owner's address; null when it stays on.
   */
  async gaveUp(id: string, attempt: WebhookAttempt, reason: string): Promise<DisabledEndpoint | null> {
    return this.db.transaction(async (tx) => {
      const [failed] = await tx
        .update(webhookDeliveries)
        .set({ ...attemptColumns(attempt), status: 'failed', nextAttemptAt: null })
        .where(and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.status, [...OPEN])))
        .returning();
      if (!failed || failed.trigger !== 'event') return null;
      const reachedSince = tx
        .select({ one: sql`1` })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, failed.endpointId), eq(webhookDeliveries.status, 'delivered'), gte(webhookDeliveries.deliveredAt, failed.createdAt)));
      const [endpoint] = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: reason, disabledAt: attempt.at, updatedAt: attempt.at })
        .where(and(eq(webhookEndpoints.id, failed.endpointId), eq(webhookEndpoints.enabled, true), sql`NOT EXISTS (${reachedSince})`))
        .returning();
      if (!endpoint) return null;
      const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, endpoint.userId));
      return owner ? { endpoint, email: owner.email } : null;
    });
  }

  /** Ends a delivery without sending it (its endpoint was turned off meanwhile), saying why. */
  async dropped(id: string, reason: string): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: reason, nextAttemptAt: null })
      .where(and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.status, [...OPEN])));
  }

  /** Notes on a delivery why it is not queued yet (Redis failed); the recovery sweep queues it. */
  async notQueued(id: string, reason: string): Promise<void> {
    await this.db.update(webhookDeliveries).set({ lastError: reason }).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
  }

  /**
   * Deliveries due before `dueBefore` and not finished: their job should have run by then. The
   * recovery sweep queues them again (under their own id, so a job still queued is not doubled).
   */
  async overdue(dueBefore: Date, limit: number): Promise<Array<Pick<WebhookDeliveryRow, 'id' | 'attempts' | 'maxAttempts'>>> {
    return this.db
      .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts, maxAttempts: webhookDeliveries.maxAttempts })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, [...OPEN]), sql`coalesce(${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.createdAt}) < ${dueBefore.toISOString()}::timestamptz`))
      .orderBy(asc(webhookDeliveries.createdAt))
      .limit(limit);
  }

  private async recordAttempt(id: string, attempt: WebhookAttempt, set: Partial<typeof webhookDeliveries.$inferInsert>): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ ...attemptColumns(attempt), ...set })
      .where(and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.status, [...OPEN])));
  }
}

function attemptColumns(attempt: WebhookAttempt) {
  return {
    attempts: sql`${webhookDeliveries.attempts} + 1`,
    lastAttemptAt: attempt.at,
    lastHttpStatus: attempt.httpStatus,
    responseTimeMs: attempt.responseTimeMs,
    lastError: attempt.error,
  };
}
