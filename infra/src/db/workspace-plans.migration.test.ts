import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';
import { BillingRepository } from '../billing.repository.js';
import { QuotaService } from '../quota.service.js';
import type { Database } from './database.js';
import * as schema from './schema.js';

// Real PostgreSQL: a database whose plans were the accounts' upgrades with each subscription,
// invoice and month's count in the subscriber's own workspace, and nothing else moved.
describe('the workspace plans migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0023_workspace_plans');
  const periodStart = new Date(Date.now() - 3 * 24 * 3600_000);
  const periodEnd = new Date(Date.now() + 27 * 24 * 3600_000);
  const month = `month:${periodStart.toISOString()}`;
  const today = `day:${new Date().toISOString().slice(0, 10)}`;

  /** An account with its own workspace, as migration 0021 left every account. */
  async function account(name: string): Promise<string> {
    const { rows } = await database.query<{ id: string }>(`INSERT INTO users (email, username, password_hash, email_verified_at) VALUES ($1, $2, 'x', now()) RETURNING id`, [
      `${name}@example.test`,
      name,
    ]);
    const id = rows[0]!.id;
    await database.query(`INSERT INTO workspaces (id, name, personal_of) VALUES ($1, $2, $1)`, [id, name]);
    await database.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $1, 'owner')`, [id]);
    return id;
  }

  async function upload(userId: string, charges: unknown[]): Promise<string> {
    const { rows } = await database.query<{ id: string }>(
      `INSERT INTO uploads (id, workspace_id, user_id, filename, mime_type, size, sha256, lane, status, quota_charges)
       VALUES (gen_random_uuid(), $1, $1, 'r.jpg', 'image/jpeg', 10, gen_random_uuid()::text, 'express', 'processing', $2) RETURNING id`,
      [userId, JSON.stringify(charges)],
    );
    return rows[0]!.id;
  }

  it('moves every subscription, invoice and billing period count to the subscriber’s own workspace', async () => {
    await database.migrateBefore();
    const ada = await account('ada');
    const bob = await account('bob');
    await database.query(
      `INSERT INTO subscriptions (user_id, plan_id, status, stripe_subscription_id, current_period_start, current_period_end, receipt_limit)
       VALUES ($1, 'starter', 'active', 'sub_ada', $2, $3, 100), ($4, 'business', 'canceled', 'sub_bob', $2, $3, 1000)`,
      [ada, periodStart, periodEnd, bob],
    );
    await database.query(
      `INSERT INTO invoices (id, user_id, amount_paid, currency, status, created_at) VALUES
        ('in_ada_1', $1, 495, 'usd', 'paid', now() - interval '31 days'), ('in_ada_2', $1, 495, 'usd', 'paid', now()), ('in_bob_1', $2, 1495, 'usd', 'paid', now())`,
      [ada, bob],
    );
    await database.query(`INSERT INTO quota_usage (subject, period, used) VALUES ($1, $2, 7), ($1, $3, 2), ($4, $3, 4), ('ip:192.0.2.1', $3, 1)`, [
      `user:${ada}`,
      month,
      today,
      `user:${bob}`,
    ]);
    const paidFor = await upload(ada, [{ subject: `user:${ada}`, period: month }]);
    const free = await upload(bob, [
      { subject: `user:${bob}`, period: today },
      { subject: 'ip:192.0.2.1', period: today },
    ]);
    await database.migrateAll();

    const { rows: subscriptions } = await database.query('SELECT workspace_id, plan_id, stripe_subscription_id FROM subscriptions ORDER BY plan_id DESC');
    expect(subscriptions).toEqual([
      { workspace_id: ada, plan_id: 'starter', stripe_subscription_id: 'sub_ada' },
      { workspace_id: bob, plan_id: 'business', stripe_subscription_id: 'sub_bob' },
    ]);
    const db = drizzle(database.client(), { schema }) as unknown as Database;
    const billing = new BillingRepository(db);
    expect((await billing.invoices(ada, 10)).map((i) => i.id)).toEqual(['in_ada_2', 'in_ada_1']);
    expect((await billing.invoices(bob, 10)).map((i) => i.id)).toEqual(['in_bob_1']);

    const { rows: usage } = await database.query('SELECT subject, period, used FROM quota_usage ORDER BY subject, period');
    expect(usage).toEqual(
      [
        { subject: `workspace:${ada}`, period: month, used: 7 },
        { subject: `user:${ada}`, period: today, used: 2 },
        { subject: `user:${bob}`, period: today, used: 4 },
        { subject: 'ip:192.0.2.1', period: today, used: 1 },
      ].sort((a, b) => a.subject.localeCompare(b.subject) || a.period.localeCompare(b.period)),
    );
    const { rows: charges } = await database.query<{ id: string; quota_charges: unknown }>('SELECT id, quota_charges FROM uploads');
    expect(new Map(charges.map((c) => [c.id, c.quota_charges]))).toEqual(
      new Map<string, unknown>([
        [paidFor, [{ subject: `workspace:${ada}`, period: month }]],
        [
          free,
          [
            { subject: `user:${bob}`, period: today },
            { subject: 'ip:192.0.2.1', period: today },
          ],
        ],
      ]),
    );
    // The subscriber goes on with the count they had: the plan's 100, 7 of them used.
    expect(await new QuotaService(db, []).view({ userId: ada, anonId: null })).toMatchObject({ used: 7, limit: 100 });
  });
});
