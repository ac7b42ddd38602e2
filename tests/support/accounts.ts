import { randomUUID } from 'node:crypto';
import { planById, type PlanId } from '@receipts/common';
import { schema, type Database } from '@receipts/infra';
import pg from 'pg';
import { Visitor } from './visitor.js';

/** Gives an existing account an active subscription, straight in the database (test set-up). */
export async function activateSubscription(databaseUrl: string, email: string, planId: PlanId = 'business'): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const now = Date.now();
  await client.query(
    `INSERT INTO subscriptions (user_id, plan_id, status, current_period_start, current_period_end, receipt_limit)
     SELECT id, $2, 'active', $3, $4, $5 FROM users WHERE email = $1`,
    [email, planId, new Date(now - 24 * 3600_000), new Date(now + 29 * 24 * 3600_000), planById(planId)!.receiptLimit],
  );
  await client.end();
}

/** An account with an active subscription, written straight to the database (test set-up). */
export async function createSubscriber(db: Database, planId: PlanId = 'business'): Promise<{ userId: string; email: string }> {
  const email = `subscriber-${randomUUID()}@example.test`;
  const [user] = await db
    .insert(schema.users)
    .values({ email, username: email.split('@')[0]!, passwordHash: 'not-used' })
    .returning({ id: schema.users.id });
  const now = Date.now();
  await db.insert(schema.subscriptions).values({
    userId: user!.id,
    planId,
    status: 'active',
    currentPeriodStart: new Date(now - 24 * 3600_000),
    currentPeriodEnd: new Date(now + 29 * 24 * 3600_000),
    receiptLimit: planById(planId)!.receiptLimit,
  });
  return { userId: user!.id, email };
}

/**
 * A visitor who signed up through the api and was then given an active subscription, so the
 * quota is not what a test or benchmark runs into.
 */
export async function signedUpSubscriber(baseUrl: string, databaseUrl: string, planId: PlanId = 'business'): Promise<{ visitor: Visitor; email: string }> {
  const visitor = new Visitor(baseUrl);
  const email = `subscriber-${randomUUID()}@example.test`;
  const res = await visitor.json('/api/auth/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'Subscriber1234' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  await activateSubscription(databaseUrl, email, planId);
  return { visitor, email };
}
