import { USER_MESSAGES, type SubscriptionView, type QuotaView } from '@receipts/common';
import { parseConfig } from '@receipts/infra';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { startStripeStandIn } from './support/stripe-stand-in.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const WEBHOOK_SECRET = 'whsec_test_secret';
const PRICES = { STRIPE_PRICE_STARTER: 'price_s', STRIPE_PRICE_PROFESSIONAL: 'price_p', STRIPE_PRICE_BUSINESS: 'price_b', STRIPE_PRICE_ENTERPRISE: 'price_e' };

const json = (body: unknown, method = 'POST') => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
let users = 0;
/** A signed-in account; its address confirmed unless `confirm` is false. */
async function signedIn(baseUrl: string, smtp: SmtpSink, confirm = true): Promise<{ visitor: Visitor; email: string; token: string }> {
  const visitor = new Visitor(baseUrl, uniqueIp());
  const email = `payer${++users}-${process.pid}@example.test`;
  const token = await signUp(visitor, smtp, email, 'Secret123', { confirm });
  return { visitor, email, token };
}

describe('billing with Stripe (stand-in)', () => {
  let deployment: Deployment;
  let stand: Awaited<ReturnType<typeof startStripeStandIn>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const stripe = new Stripe('sk_test_unused');

  const deliver = (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    return fetch(`${deployment.baseUrl}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body: payload });
  };
  const subscriptionEvent = (id: string, type: string, sub: object) => ({ id, object: 'event', type, data: { object: sub } });

  beforeAll(async () => {
    stand = await startStripeStandIn();
    smtp = await startSmtpSink();
    deployment = await Deployment.start('postgres', {
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stand.port),
      STRIPE_API_PROTOCOL: 'http',
      SMTP_URL: smtp.url,
      ...PRICES,
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    await stand?.close();
    await smtp?.close();
  });

  it('refuses anonymous visitors with the text the web app looks for', async () => {
    const res = await new Visitor(deployment.baseUrl, uniqueIp()).json('/api/create-subscription', json({ planId: 'business', stripePriceId: 'price_b' }));
    expect(res).toEqual({ status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } });
  });

  it('creates the customer and an incomplete subscription, answers the client secret, and follows the webhooks once each', async () => {
    const { visitor, email } = await signedIn(deployment.baseUrl, smtp);
    expect((await visitor.json('/api/create-subscription', json({ planId: 'business', stripePriceId: 'price_p' }))).status).toBe(400);

    const created = await visitor.json<{ clientSecret: string }>('/api/create-subscription', json({ planId: 'business', stripePriceId: 'price_b' }));
    expect(created.status).toBe(200);
    expect(created.body.clientSecret).toMatch(/^pi_sub_\d+_secret_test$/);
    const customerCall = stand.requests.find((r) => r.path === '/v1/customers' && r.form.get('email') === email)!;
    expect(customerCall).toBeDefined();
    const subCall = stand.requests.filter((r) => r.path === '/v1/subscriptions').at(-1)!;
    expect(subCall.form.get('items[0][price]')).toBe('price_b');
    expect(subCall.form.get('payment_behavior')).toBe('default_incomplete');
    const customer = subCall.form.get('customer')!;
    const subId = /^pi_(sub_\d+)_secret/.exec(created.body.clientSecret)![1]!;

    let subscription = (await visitor.json<SubscriptionView>('/api/user/subscription')).body;
    expect(subscription).toMatchObject({ planName: 'Business', status: 'incomplete', isActive: false, receiptLimit: 5 });

    const active = subscriptionEvent(`evt_active_${subId}`, 'customer.subscription.updated', stand.subscription(subId, customer, 'price_b', 'active'));
    expect((await deliver(active)).status).toBe(200);
    subscription = (await visitor.json<SubscriptionView>('/api/user/subscription')).body;
    expect(subscription).toMatchObject({ planName: 'Business', status: 'active', isActive: true, receiptLimit: 1000 });
    expect((await visitor.json<QuotaView>('/api/user/quota')).body).toMatchObject({ limit: 1000, canProcess: true });

    const pastDue = subscriptionEvent(`evt_pastdue_${subId}`, 'customer.subscription.updated', stand.subscription(subId, customer, 'price_b', 'past_due'));
    await deliver(pastDue);
    // The first event delivered again (Stripe retries) changes nothing.
    const replay = await deliver(active);
    expect(await replay.json()).toEqual({ received: true, applied: false });
    expect((await visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ status: 'past_due', isActive: false });

    const paid = {
      id: `evt_paid_${subId}`,
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: `in_${subId}`, object: 'invoice', customer, amount_paid: 1495, currency: 'usd', status: 'paid', billing_reason: 'subscription_create', hosted_invoice_url: 'https://invoice.stripe.test/1', period_end: Math.floor(Date.now() / 1000) } },
    };
    await deliver(paid);
    const billing = (await visitor.json<{ invoices: Array<{ amount: number; status: string }> }>('/api/billing')).body;
    expect(billing.invoices).toEqual([expect.objectContaining({ amount: 14.95, status: 'paid' })]);
    // The first mail was the address's confirmation link.
    expect((await smtp.mailsTo(email, 2))[1]?.decoded).toContain('Business plan');

    const portal = await visitor.json<{ url: string }>('/api/billing/portal', json({}));
    expect(portal.body.url).toBe('https://billing.stripe.test/session/bps_1');
    const cancelled = await visitor.json<{ cancelAtPeriodEnd: boolean }>('/api/billing/cancel', json({}));
    expect(cancelled.body.cancelAtPeriodEnd).toBe(true);
    expect(stand.requests.at(-1)).toMatchObject({ path: `/v1/subscriptions/${subId}` });
  });

  it('bills a team workspace to its owner and brings Stripe’s events back to the workspace, whose members share the plan', async () => {
    const owner = await signedIn(deployment.baseUrl, smtp);
    const member = await signedIn(deployment.baseUrl, smtp);
    const client = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await client.connect();
    let team: string;
    let ownerId: string;
    try {
      const idOf = async (email: string) => (await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id;
      ownerId = await idOf(owner.email);
      const memberId = await idOf(member.email);
      team = (await client.query<{ id: string }>(`INSERT INTO workspaces (name) VALUES ('Team') RETURNING id`)).rows[0]!.id;
      await client.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner'), ($1, $3, 'member')`, [team, ownerId, memberId]);
    } finally {
      await client.end();
    }
    for (const { visitor } of [owner, member]) expect((await visitor.json('/api/workspaces/current', json({ workspaceId: team }, 'PUT'))).status).toBe(200);

    const created = await owner.visitor.json<{ clientSecret: string }>('/api/create-subscription', json({ planId: 'business', stripePriceId: 'price_b' }));
    expect(created.status).toBe(200);
    const call = stand.requests.filter((r) => r.path === '/v1/subscriptions').at(-1)!;
    // The owner is the customer; the workspace is named in the subscription.
    expect(stand.requests.find((r) => r.path === '/v1/customers' && r.form.get('email') === owner.email)).toBeDefined();
    expect(call.form.get('metadata[workspaceId]')).toBe(team);
    const customer = call.form.get('customer')!;
    const subId = /^pi_(sub_\d+)_secret/.exec(created.body.clientSecret)![1]!;

    const active = stand.subscription(subId, customer, 'price_b', 'active', false, { workspaceId: team });
    expect((await deliver(subscriptionEvent(`evt_team_active_${subId}`, 'customer.subscription.updated', active))).status).toBe(200);
    expect((await member.visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ planName: 'Business', isActive: true });
    expect((await member.visitor.json<QuotaView>('/api/user/quota')).body).toMatchObject({ limit: 1000 });

    const invoice = {
      id: `in_team_${subId}`,
      object: 'invoice',
      customer,
      amount_paid: 1495,
      currency: 'usd',
      status: 'paid',
      billing_reason: 'subscription_create',
      hosted_invoice_url: 'https://invoice.stripe.test/team',
      period_end: Math.floor(Date.now() / 1000),
      parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata: { workspaceId: team } } },
    };
    await deliver({ id: `evt_team_paid_${subId}`, object: 'event', type: 'invoice.paid', data: { object: invoice } });
    expect((await owner.visitor.json<{ invoices: Array<{ id: string }> }>('/api/billing')).body.invoices).toEqual([expect.objectContaining({ id: invoice.id })]);
    // The confirmation goes to the owner, who pays.
    expect((await smtp.mailsTo(owner.email, 2))[1]?.decoded).toContain('Business plan');

    // An event without the metadata finds the workspace by the subscription it is about.
    const pastDue = stand.subscription(subId, customer, 'price_b', 'past_due');
    await deliver(subscriptionEvent(`evt_team_pastdue_${subId}`, 'customer.subscription.updated', pastDue));
    expect((await member.visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ status: 'past_due', isActive: false });

    // A member may not touch the workspace's billing; the owner's own workspace has no plan and no invoice.
    expect((await member.visitor.json('/api/billing')).status).toBe(403);
    expect((await owner.visitor.json('/api/workspaces/current', json({ workspaceId: ownerId }, 'PUT'))).status).toBe(200);
    expect((await owner.visitor.json('/api/billing')).body).toMatchObject({ plan: null, status: 'free', invoices: [] });
  });

  it('changes nothing for a webhook with a bad signature', async () => {
    const { visitor } = await signedIn(deployment.baseUrl, smtp);
    const created = await visitor.json<{ clientSecret: string }>('/api/create-subscription', json({ planId: 'starter', stripePriceId: 'price_s' }));
    const call = stand.requests.filter((r) => r.path === '/v1/subscriptions').at(-1)!;
    const subId = /^pi_(sub_\d+)_secret/.exec(created.body.clientSecret)![1]!;
    const forged = subscriptionEvent('evt_forged', 'customer.subscription.updated', stand.subscription(subId, call.form.get('customer')!, 'price_s', 'active'));
    const res = await deliver(forged, 'whsec_wrong');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'BAD_REQUEST', message: 'Invalid Stripe signature.' });
    expect((await visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ status: 'incomplete', isActive: false });
  });
});

describe('billing without Stripe keys', () => {
  let deployment: Deployment;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    deployment = await Deployment.start('postgres', { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await deployment?.stop();
    await smtp?.close();
  });

  it('activates the plan locally in test mode, once the address is confirmed', async () => {
    const { visitor, token } = await signedIn(deployment.baseUrl, smtp, false);
    const plans = (await visitor.json<{ plans: Array<{ id: string; stripePriceId: string }>; testMode: boolean }>('/api/plans')).body;
    expect(plans.testMode).toBe(true);
    const price = plans.plans.find((p) => p.id === 'professional')!.stripePriceId;
    const choose = () => visitor.json<{ testMode: boolean; message: string }>('/api/create-subscription', json({ planId: 'professional', stripePriceId: price }));
    expect(await choose()).toEqual({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: USER_MESSAGES.confirmBeforeSubscribing } });
    expect((await visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ planName: 'Free', isActive: false });

    expect((await visitor.json('/api/auth/verify-email', json({ token }))).status).toBe(200);
    expect((await choose()).body).toMatchObject({ testMode: true });
    expect((await visitor.json<SubscriptionView>('/api/user/subscription')).body).toMatchObject({ planName: 'Professional', isActive: true, receiptLimit: 500 });
    const upload = await visitor.json<Record<string, unknown>>('/api/user/quota');
    expect(upload.body).toMatchObject({ limit: 500 });
  });

  it('is refused in production, where no plan may be granted for free', () => {
    const config = parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'a-very-long-secret-value' });
    expect(config.billingTestMode).toBe(false);
    expect(parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'a-very-long-secret-value', BILLING_TEST_MODE: 'true' }).billingTestMode).toBe(true);
    expect(() => parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'a-very-long-secret-value', STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
