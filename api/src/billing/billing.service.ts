import { formatMoney, PLANS, planById, USER_MESSAGES, type BillingOverview, type Catalogue, type Plan, type PlanId, type SubscriptionSetup } from '@receipts/common';
import type { BillingRepository, Config, Logger, Mailer, UserRow } from '@receipts/infra';
import Stripe from 'stripe';
import { HttpError } from '../http-error.js';

const TEST_PERIOD_MS = 30 * 24 * 3600_000;

const noStripe = () =>
  new HttpError(503, 'SERVICE_UNAVAILABLE', 'Payments are not available right now: billing is not configured. Please try again later.');

/**
 * Workspaces' subscriptions through Stripe; with no keys and test mode allowed, plans are
 * activated locally. The account that subscribes (the workspace's owner) is the Stripe customer
 * and pays; the plan is the workspace's, named in the Stripe subscription's metadata, so Stripe's
 * events find their way back to it.
 */
export class BillingService {
  readonly stripe: Stripe | null;

  constructor(
    private readonly billing: BillingRepository,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.stripe = config.STRIPE_SECRET_KEY
      ? new Stripe(config.STRIPE_SECRET_KEY, {
          ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
          ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
          ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
          maxNetworkRetries: 1,
        })
      : null;
  }

  /** The price a plan is sold at: the configured Stripe price, or a stable placeholder in test mode. */
  priceOf(plan: Plan): string | undefined {
    return this.config.stripePrices[plan.id] ?? (this.stripe ? undefined : `price_test_${plan.id}`);
  }

  planOfPrice(priceId: string | undefined): Plan | undefined {
    return PLANS.find((p) => this.priceOf(p) === priceId);
  }

  catalogue(): Catalogue {
    return {
      plans: PLANS.map((p) => ({ ...p, stripePriceId: this.priceOf(p) ?? null })),
      publishableKey: this.config.STRIPE_PUBLISHABLE_KEY ?? null,
      testMode: !this.stripe && this.config.billingTestMode,
    };
  }

  /** Subscribes `workspaceId` to a plan, `user` (its owner) paying. */
  async createSubscription(user: UserRow, workspaceId: string, planId: string, stripePriceId: string): Promise<SubscriptionSetup> {
    const plan = planById(planId);
    if (!plan) throw new HttpError(400, 'BAD_REQUEST', `Unknown plan: ${planId}`);
    if (this.priceOf(plan) !== stripePriceId) throw new HttpError(400, 'BAD_REQUEST', 'That price does not belong to the chosen plan.');
    if (!this.stripe) {
      if (!this.config.billingTestMode) throw noStripe();
      const now = new Date();
      await this.saveSubscription(workspaceId, plan.id, { status: 'active', start: now, end: new Date(now.getTime() + TEST_PERIOD_MS), cancelAtPeriodEnd: false });
      await this.sendConfirmation(user.email, plan);
      return { testMode: true, message: `Test mode: the ${plan.name} plan is active for 30 days, no payment taken.` };
    }
    const customer = user.stripeCustomerId ?? (await this.createCustomer(user));
    const subscription = await this.stripe.subscriptions.create({
      customer,
      items: [{ price: stripePriceId }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { workspaceId, userId: user.id, planId: plan.id },
      expand: ['latest_invoice.confirmation_secret'],
    });
    await this.applySubscription(subscription, this.billing, workspaceId);
    const invoice = subscription.latest_invoice as Stripe.Invoice | null;
    const clientSecret = invoice?.confirmation_secret?.client_secret;
    if (!clientSecret) throw new HttpError(502, 'SERVICE_UNAVAILABLE', USER_MESSAGES.noClientSecret);
    return { clientSecret };
  }

  private async createCustomer(user: UserRow): Promise<string> {
    const customer = await this.stripe!.customers.create({ email: user.email, metadata: { userId: user.id } });
    await this.billing.setStripeCustomer(user.id, customer.id);
    return customer.id;
  }

  private async saveSubscription(
    workspaceId: string,
    planId: PlanId,
    state: { status: string; start: Date; end: Date; cancelAtPeriodEnd: boolean; stripeSubscriptionId?: string },
    billing: BillingRepository = this.billing,
  ): Promise<void> {
    await billing.saveSubscription({
      workspaceId,
      planId,
      status: state.status,
      stripeSubscriptionId: state.stripeSubscriptionId ?? null,
      currentPeriodStart: state.start,
      currentPeriodEnd: state.end,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      receiptLimit: planById(planId)!.receiptLimit,
    });
  }

  /**
   * The workspace a Stripe subscription pays for: the one its metadata names, else the one our
   * row of it belongs to, else (a subscription from before plans were workspaces', naming only
   * the account) the paying account's own workspace. Null when none of those exists any more.
   */
  private async workspaceOf(
    sub: { id?: string; metadata?: Stripe.Metadata | null; customer: string | { id: string } | null },
    billing: BillingRepository,
  ): Promise<string | null> {
    const named = sub.metadata?.workspaceId;
    if (named) return (await billing.workspaceExists(named)) ? named : null;
    const known = sub.id ? await billing.subscriptionByStripeId(sub.id) : null;
    if (known) return known.workspaceId;
    const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer?.id;
    const payer = customerId ? await billing.userByStripeCustomer(customerId) : null;
    return payer?.id ?? null;
  }

  /** Our row follows Stripe's subscription: status, plan (by price), period, cancel flag. `workspaceId`: known when we just made it. */
  private async applySubscription(sub: Stripe.Subscription, billing: BillingRepository = this.billing, workspaceId?: string): Promise<void> {
    const workspace = workspaceId ?? (await this.workspaceOf(sub, billing));
    if (!workspace) {
      this.log.warn({ subscription: sub.id }, 'subscription for an unknown workspace ignored');
      return;
    }
    const item = sub.items.data[0];
    const plan = this.planOfPrice(item?.price.id);
    if (!plan || !item) {
      this.log.warn({ subscription: sub.id, price: item?.price.id }, 'subscription with an unknown price ignored');
      return;
    }
    await this.saveSubscription(
      workspace,
      plan.id,
      {
        status: sub.status,
        start: new Date(item.current_period_start * 1000),
        end: new Date(item.current_period_end * 1000),
        cancelAtPeriodEnd: sub.cancel_at_period_end,
        stripeSubscriptionId: sub.id,
      },
      billing,
    );
  }

  /** Verifies a webhook's signature and applies its event once; false when it was seen before. */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<boolean> {
    if (!this.stripe || !this.config.STRIPE_WEBHOOK_SECRET) throw noStripe();
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature ?? '', this.config.STRIPE_WEBHOOK_SECRET);
    } catch {
      throw new HttpError(400, 'BAD_REQUEST', 'Invalid Stripe signature.');
    }
    let confirmation: { email: string; plan: Plan } | null = null;
    const applied = await this.billing.applyEventOnce(event, async (billing) => {
      switch (event.type) {
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          await this.applySubscription(event.data.object, billing);
          break;
        case 'invoice.paid':
        case 'invoice.payment_succeeded':
        case 'invoice.payment_failed':
          confirmation = await this.recordInvoice(event.data.object, billing, event.type === 'invoice.payment_failed');
          break;
        default:
          break;
      }
    });
    const sent = confirmation as { email: string; plan: Plan } | null;
    if (sent) await this.sendConfirmation(sent.email, sent.plan).catch((err: unknown) => this.log.error({ err }, 'confirmation mail failed'));
    return applied;
  }

  /**
   * Keeps the invoice for its workspace's billing page; a first successful payment earns the
   * paying account the confirmation e-mail.
   */
  private async recordInvoice(invoice: Stripe.Invoice, billing: BillingRepository, failed: boolean) {
    const customerId = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    if (!customerId || !invoice.id) return null;
    const details = invoice.parent?.subscription_details;
    const subscriptionId = typeof details?.subscription === 'string' ? details.subscription : details?.subscription?.id;
    const workspaceId = await this.workspaceOf({ id: subscriptionId, metadata: details?.metadata, customer: customerId }, billing);
    if (!workspaceId) return null;
    await billing.saveInvoice({
      id: invoice.id,
      workspaceId,
      amountPaid: invoice.amount_paid,
      currency: invoice.currency,
      status: failed ? 'payment_failed' : (invoice.status ?? 'paid'),
      hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      periodEnd: invoice.period_end ? new Date(invoice.period_end * 1000) : null,
    });
    if (failed || invoice.billing_reason !== 'subscription_create') return null;
    const [payer, sub] = await Promise.all([billing.userByStripeCustomer(customerId), billing.subscription(workspaceId)]);
    const plan = sub ? planById(sub.planId) : undefined;
    return payer && plan ? { email: payer.email, plan } : null;
  }

  private async sendConfirmation(email: string, plan: Plan): Promise<void> {
    await this.mailer.send({
      to: email,
      subject: `Welcome to ${plan.name}`,
      text: `Thank you for subscribing to the ${plan.name} plan (${formatMoney(plan.price, 'USD')} a month).\n\nYou can now process ${plan.receiptLimit.toLocaleString('en-US')} receipts a month on the express lane.\nManage your subscription: ${this.config.publicUrl}/billing\n`,
    });
  }

  /** The /billing page of a workspace: plan, status, next charge, invoices. */
  async overview(workspaceId: string): Promise<BillingOverview> {
    const [sub, list] = await Promise.all([this.billing.subscription(workspaceId), this.billing.invoices(workspaceId, 24)]);
    const plan = sub ? planById(sub.planId) : undefined;
    return {
      plan: plan ? { id: plan.id, name: plan.name, price: plan.price, receiptLimit: plan.receiptLimit } : null,
      status: sub?.status ?? 'free',
      currentPeriodEnd: sub?.currentPeriodEnd.toISOString() ?? null,
      cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
      nextCharge: sub && plan && !sub.cancelAtPeriodEnd && sub.status === 'active' ? { date: sub.currentPeriodEnd.toISOString(), amount: plan.price, currency: 'USD' } : null,
      invoices: list.map((i) => ({
        id: i.id,
        amount: i.amountPaid / 100,
        currency: i.currency.toUpperCase(),
        status: i.status,
        url: i.hostedInvoiceUrl,
        date: i.createdAt.toISOString(),
      })),
      testMode: !this.stripe && this.config.billingTestMode,
    };
  }

  async cancelAtPeriodEnd(workspaceId: string): Promise<void> {
    const sub = await this.billing.subscription(workspaceId);
    if (!sub) throw new HttpError(404, 'NOT_FOUND', 'This workspace has no subscription to cancel.');
    if (this.stripe && sub.stripeSubscriptionId) {
      await this.stripe.subscriptions.update(sub.stripeSubscriptionId, { cancel_at_period_end: true });
    } else if (!this.config.billingTestMode) {
      throw noStripe();
    }
    await this.billing.cancelAtPeriodEnd(workspaceId);
  }

  /**
   * Before an account is deleted: its Stripe customer goes, which ends any subscription at once,
   * so nobody is charged for an account that no longer exists. Fails (and the deletion with it)
   * when Stripe cannot be reached.
   */
  async closeCustomer(user: UserRow): Promise<void> {
    if (!this.stripe || !user.stripeCustomerId) return;
    try {
      await this.stripe.customers.del(user.stripeCustomerId);
    } catch (err) {
      if ((err as { code?: string }).code === 'resource_missing') return;
      this.log.warn({ err, userId: user.id }, 'could not delete the Stripe customer');
      throw new HttpError(503, 'SERVICE_UNAVAILABLE', 'Your subscription could not be ended right now, so your account was not deleted. Please try again in a minute.');
    }
  }

  async portalUrl(user: UserRow): Promise<string> {
    if (!this.stripe) throw noStripe();
    if (!user.stripeCustomerId) throw new HttpError(404, 'NOT_FOUND', 'You have no billing account yet.');
    const session = await this.stripe.billingPortal.sessions.create({ customer: user.stripeCustomerId, return_url: `${this.config.publicUrl}/billing` });
    return session.url;
  }
}
