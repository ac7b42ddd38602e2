import { desc, eq } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { invoices, stripeEvents, subscriptions, users, type SubscriptionRow, type UserRow } from './db/schema.js';

export type SubscriptionValues = Omit<typeof subscriptions.$inferInsert, 'createdAt' | 'updatedAt'>;
export type InvoiceValues = Omit<typeof invoices.$inferInsert, 'createdAt'>;
export type InvoiceRow = typeof invoices.$inferSelect;

/** Subscriptions, invoices, Stripe customers and the Stripe events already applied. */
export class BillingRepository {
  /** `db` may be a transaction: `applyEventOnce` hands one to its callback. */
  constructor(private readonly db: Database) {}

  async subscription(userId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return row ?? null;
  }

  /** The account's e-mail with its subscription's state, for mail only subscribers get; null without one. */
  async subscriber(userId: string): Promise<{ email: string; status: string; currentPeriodEnd: Date } | null> {
    const [row] = await this.db
      .select({ email: users.email, status: subscriptions.status, currentPeriodEnd: subscriptions.currentPeriodEnd })
      .from(users)
      .innerJoin(subscriptions, eq(subscriptions.userId, users.id))
      .where(eq(users.id, userId));
    return row ?? null;
  }

  /** Creates or replaces the user's one subscription. */
  async saveSubscription(values: SubscriptionValues): Promise<void> {
    const { userId: _key, ...update } = values;
    await this.db
      .insert(subscriptions)
      .values(values)
      .onConflictDoUpdate({ target: subscriptions.userId, set: { ...update, updatedAt: new Date() } });
  }

  async cancelAtPeriodEnd(userId: string): Promise<void> {
    await this.db.update(subscriptions).set({ cancelAtPeriodEnd: true, updatedAt: new Date() }).where(eq(subscriptions.userId, userId));
  }

  async userByStripeCustomer(customerId: string): Promise<UserRow | null> {
    const [user] = await this.db.select().from(users).where(eq(users.stripeCustomerId, customerId));
    return user ?? null;
  }

  async setStripeCustomer(userId: string, customerId: string): Promise<void> {
    await this.db.update(users).set({ stripeCustomerId: customerId, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  /** The user's latest invoices, newest first. */
  invoices(userId: string, limit: number): Promise<InvoiceRow[]> {
    return this.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt)).limit(limit);
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
