import { desc, eq } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { invoices, stripeEvents, subscriptions, users, workspaces, type SubscriptionRow, type UserRow } from './db/schema.js';

export type SubscriptionValues = Omit<typeof subscriptions.$inferInsert, 'createdAt' | 'updatedAt'>;
export type InvoiceValues = Omit<typeof invoices.$inferInsert, 'createdAt'>;
export type InvoiceRow = typeof invoices.$inferSelect;

/** Workspaces' subscriptions and invoices, the Stripe customers (accounts that pay) and the Stripe events already applied. */
export class BillingRepository {
  /** `db` may be a transaction: `applyEventOnce` hands one to its callback. */
  constructor(private readonly db: Database) {}

  /** The workspace's subscription; null without one. */
  async subscription(workspaceId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId));
    return row ?? null;
  }

  /** The subscription Stripe knows by this id; null when none of ours is. */
  async subscriptionByStripeId(stripeSubscriptionId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId));
    return row ?? null;
  }

  /** Whether the workspace still exists (a Stripe event may name one deleted since). */
  async workspaceExists(workspaceId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    return Boolean(row);
  }

  /**
   * The account's e-mail with the state of the workspace's subscription, for mail only those on
   * a paid plan get; null when the workspace has none.
   */
  async subscriber(userId: string, workspaceId: string): Promise<{ email: string; status: string; currentPeriodEnd: Date } | null> {
    const [row] = await this.db
      .select({ email: users.email, status: subscriptions.status, currentPeriodEnd: subscriptions.currentPeriodEnd })
      .from(users)
      .innerJoin(subscriptions, eq(subscriptions.workspaceId, workspaceId))
      .where(eq(users.id, userId));
    return row ?? null;
  }

  /** Creates or replaces the workspace's one subscription. */
  async saveSubscription(values: SubscriptionValues): Promise<void> {
    const { workspaceId: _key, ...update } = values;
    await this.db
      .insert(subscriptions)
      .values(values)
      .onConflictDoUpdate({ target: subscriptions.workspaceId, set: { ...update, updatedAt: new Date() } });
  }

  async cancelAtPeriodEnd(workspaceId: string): Promise<void> {
    await this.db.update(subscriptions).set({ cancelAtPeriodEnd: true, updatedAt: new Date() }).where(eq(subscriptions.workspaceId, workspaceId));
  }

  async userByStripeCustomer(customerId: string): Promise<UserRow | null> {
    const [user] = await this.db.select().from(users).where(eq(users.stripeCustomerId, customerId));
    return user ?? null;
  }

  async setStripeCustomer(userId: string, customerId: string): Promise<void> {
    await this.db.update(users).set({ stripeCustomerId: customerId, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  /** The workspace's latest invoices, newest first. */
  invoices(workspaceId: string, limit: number): Promise<InvoiceRow[]> {
    return this.db.select().from(invoices).where(eq(invoices.workspaceId, workspaceId)).orderBy(desc(invoices.createdAt)).limit(limit);
  }

  /** Keeps an invoice; one seen again updates its status and amount. */
  async saveInvoice(values: InvoiceValues): Promise<void> {
    await this.db
      .insert(invoices)
      .values(values)
      .onConflictDoUpdate({ target: invoices.id, set: { status: values.status, amountPaid: values.amountPaid } });
  }

  /**
   * Applies a Stripe event once: `apply` runs, with a repository inside the same transaction,
   * only for an event id not seen before. False when it was.
   */
  async applyEventOnce(event: { id: string; type: string }, apply: (billing: BillingRepository) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [fresh] = await tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning();
      if (!fresh) return false;
      await apply(new BillingRepository(tx));
      return true;
    });
  }
}
