import { receiptListQuerySchema } from '@receipts/common';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';
import { CategoryRepository } from '../category.repository.js';
import { IntakeRepository } from '../intake.repository.js';
import { MerchantRuleRepository } from '../merchant-rule.repository.js';
import { ReceiptRepository } from '../receipt.repository.js';
import { UploadReadRepository } from '../upload-read.repository.js';
import { WorkspaceRepository } from '../workspace.repository.js';
import type { Database } from './database.js';
import * as schema from './schema.js';

const DATEV = { consultantNumber: 4711, clientNumber: 815, accountLength: 4, chart: 'SKR03', bankAccount: '1200', fiscalYearStart: '01-01' };

// Real PostgreSQL: a database of before workspaces, with two accounts' data and an anonymous
// visitor's upload, upgrades with every row in its account's own workspace.
describe('the workspaces migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0021_workspaces');

  async function accountWithData(name: string): Promise<string> {
    const { rows } = await database.query<{ id: string }>(`INSERT INTO users (email, username, password_hash, datev_settings) VALUES ($1, $2, 'x', $3) RETURNING id`, [
      `${name}@example.test`,
      name,
      JSON.stringify(DATEV),
    ]);
    const userId = rows[0]!.id;
    for (const merchant of [`${name} Bakery`, `${name} Fuel`]) {
      const upload = await database.query<{ id: string }>(
        `INSERT INTO uploads (id, user_id, filename, mime_type, size, sha256, lane, status) VALUES (gen_random_uuid(), $1, $2, 'image/jpeg', 10, $2, 'standard', 'completed') RETURNING id`,
        [userId, `${merchant}.jpg`],
      );
      await database.query(`INSERT INTO receipts (upload_id, merchant_name, category, quality, items, raw_text, issues, valid) VALUES ($1, $2, 'food', 0.9, '[]', '', '[]', true)`, [
        upload.rows[0]!.id,
        merchant,
      ]);
    }
    await database.query(`INSERT INTO merchant_rules (user_id, kind, match, match_key, value) VALUES ($1, 'merchant', $2, $3, $4)`, [userId, `${name} bkry`, `${name.toLowerCase()} bkry`, `${name} Bakery`]);
    await database.query(`INSERT INTO user_categories (user_id, name, datev_account) VALUES ($1, $2, '4985')`, [userId, `${name} trips`]);
    await database.query(`INSERT INTO intake_addresses (user_id, token) VALUES ($1, $2)`, [userId, `token-${name}`]);
    return userId;
  }

  it('puts every account’s uploads, receipts, rules, categories, intake address and DATEV settings in its own workspace', async () => {
    await database.migrateBefore();
    const ada = await accountWithData('Ada');
    const bob = await accountWithData('Bob');
    const anonymous = await database.query<{ id: string }>(
      `INSERT INTO uploads (id, anon_id, filename, mime_type, size, sha256, lane) VALUES (gen_random_uuid(), gen_random_uuid(), 'a.jpg', 'image/jpeg', 10, 'anon', 'standard') RETURNING id`,
    );
    await database.migrateAll();

    const db = drizzle(database.client(), { schema }) as unknown as Database;
    const workspaces = new WorkspaceRepository(db);
    for (const [userId, name, other] of [
      [ada, 'Ada', 'Bob'],
      [bob, 'Bob', 'Ada'],
    ] as const) {
      const [own, ...more] = await workspaces.listFor(userId);
      expect(more).toEqual([]);
      expect(own).toMatchObject({ role: 'owner', members: 1, workspace: { id: userId, name, personalOf: userId, datevSettings: DATEV } });

      const owner = { userId, anonId: null, workspace: { id: userId, role: 'owner' as const, personal: true } };
      const uploads = await new UploadReadRepository(db).list(owner);
      expect(uploads.map((u) => u.receipt?.merchantName).sort()).toEqual([`${name} Bakery`, `${name} Fuel`]);
      const { rows: library } = await new ReceiptRepository(db).list(owner, receiptListQuerySchema.parse({}));
      expect(library.map((r) => r.receipt.merchantName).sort()).toEqual([`${name} Bakery`, `${name} Fuel`]);
      expect((await new MerchantRuleRepository(db).forWorkspace(userId)).map((r) => r.value)).toEqual([`${name} Bakery`]);
      expect((await new CategoryRepository(db).list(userId)).map((c) => [c.name, c.datevAccount])).toEqual([[`${name} trips`, '4985']]);
      expect(await new IntakeRepository(db).accountOf(`token-${name}`)).toMatchObject({ userId, workspaceId: userId, role: 'owner' });
      expect(JSON.stringify(uploads)).not.toContain(other);
    }
    const { rows: anon } = await database.query<{ workspace_id: string | null }>('SELECT workspace_id FROM uploads WHERE id = $1', [anonymous.rows[0]!.id]);
    expect(anon).toEqual([{ workspace_id: null }]);
    const { rows: counts } = await database.query<{ uploads: number; receipts: number }>('SELECT (SELECT count(*)::int FROM uploads) AS uploads, (SELECT count(*)::int FROM receipts) AS receipts');
    expect(counts).toEqual([{ uploads: 5, receipts: 4 }]);
  });
});
