import { randomUUID } from 'node:crypto';
import { planById, type PlanId } from '@receipts/common';
import { createPersonalWorkspace, schema, type Database } from '@receipts/infra';
import pg from 'pg';
import { tokenIn, type SmtpSink } from './smtp-sink.js';
import { Visitor } from './visitor.js';

const post = (visitor: Visitor, url: string, body: unknown) =>
  visitor.json<Record<string, unknown>>(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

async function expectStatus(what: string, answer: Promise<{ status: number; body: unknown }>, status: number): Promise<void> {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Signs up through the api the way a person does: registers, waits for the confirmation mail
 * (the registration is worked through after the answer), signs in and, unless `confirm` is
 * false, follows the mailed link. Returns the link's token.
 */
export async function signUp(visitor: Visitor, smtp: SmtpSink, email: string, password: string, options: { confirm?: boolean } = {}): Promise<string> {
  const before = smtp.mails.filter((m) => m.to.includes(email)).length;
  await expectStatus('register', post(visitor, '/api/auth/register', { email, password }), 202);
  const mail = (await smtp.mailsTo(email, before + 1))[before];
  if (!mail) throw new Error(`no confirmation mail reached ${email}`);
  const token = tokenIn(mail, 'verify-email');
  await expectStatus('login', post(visitor, '/api/auth/login', { email, password }), 200);
  if (options.confirm ?? true) await expectStatus('verify-email', post(visitor, '/api/auth/verify-email', { token }), 200);
  return token;
}

/**
 * Signs up through the api without reading mail (for deployments that have no SMTP stand-in):
 * registers, waits until the account exists in the database, and signs in. The address stays
 * unconfirmed.
 */
export async function signUpUnconfirmed(visitor: Visitor, databaseUrl: string, email: string, password: string): Promise<void> {
  await expectStatus('register', post(visitor, '/api/auth/register', { email, password }), 202);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 15_000;
    while ((await client.query('SELECT 1 FROM users WHERE email = $1', [email])).rowCount === 0) {
      if (Date.now() > deadline) throw new Error(`the registration of ${email} made no account`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
  await expectStatus('login', post(visitor, '/api/auth/login', { email, password }), 200);
}

/**
 * Gives an existing account's own workspace an active subscription, straight in the database
 * (test set-up). Its address counts as confirmed from then on, as checkout asks.
 */
export async function activateSubscription(databaseUrl: string, email: string, planId: PlanId = 'business'): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const now = Date.now();
  await client.query(
    `INSERT INTO subscriptions (workspace_id, plan_id, status, current_period_start, current_period_end, receipt_limit)
     SELECT id, $2, 'active', $3, $4, $5 FROM users WHERE email = $1`,
    [email, planId, new Date(now - 24 * 3600_000), new Date(now + 29 * 24 * 3600_000), planById(planId)!.receiptLimit],
  );
  await client.query('UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE email = $1', [email]);
  await client.end();
}

/** Gives a workspace an active subscription to `planId`, its period begun a day ago, straight in the database (test set-up). */
export async function subscribeWorkspace(db: Database, workspaceId: string, planId: PlanId = 'business'): Promise<void> {
  const now = Date.now();
  await db.insert(schema.subscriptions).values({
    workspaceId,
    planId,
    status: 'active',
    currentPeriodStart: new Date(now - 24 * 3600_000),
    currentPeriodEnd: new Date(now + 29 * 24 * 3600_000),
    receiptLimit: planById(planId)!.receiptLimit,
  });
}

/** A confirmed account whose own workspace has an active subscription, written straight to the database (test set-up). */
export async function createSubscriber(db: Database, planId: PlanId = 'business'): Promise<{ userId: string; email: string }> {
  const email = `subscriber-${randomUUID()}@example.test`;
  const [user] = await db
    .insert(schema.users)
    .values({ email, username: email.split('@')[0]!, passwordHash: 'not-used', emailVerifiedAt: new Date() })
    .returning({ id: schema.users.id, username: schema.users.username });
  await createPersonalWorkspace(db, user!);
  await subscribeWorkspace(db, user!.id, planId);
  return { userId: user!.id, email };
}

/**
 * A visitor who signed up and in through the api and was then given an active subscription, so
 * the quota is not what a test or benchmark runs into.
 */
export async function signedUpSubscriber(baseUrl: string, databaseUrl: string, planId: PlanId = 'business'): Promise<{ visitor: Visitor; email: string }> {
  const visitor = new Visitor(baseUrl);
  const email = `subscriber-${randomUUID()}@example.test`;
  await signUpUnconfirmed(visitor, databaseUrl, email, 'Subscriber1234');
  await activateSubscription(databaseUrl, email, planId);
  return { visitor, email };
}
