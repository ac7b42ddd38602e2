import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ISSUE_TEXTS } from '@receipts/common';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServices, type TestServices } from '../../../tests/support/services.js';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** The flag's text before the migration, as receipts stored it. */
const OLD_TEXT = "Currency not printed; assumed from the receipt's country";

// Real PostgreSQL: receipts stored with the currency-sign flag's old text, raised or accepted,
// carry the new one after the migration; their other flags stay as they were, in their order.
describe('the currency-sign flag migration', { timeout: 60_000 }, () => {
  let services: TestServices;
  let client: pg.Client;
  let before: string;

  beforeAll(async () => {
    services = await provisionServices();
    client = new pg.Client({ connectionString: services.databaseUrl });
    await client.connect();
    // The migrations up to the one before it, in a folder of their own.
    before = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(migrationsFolder, before, { recursive: true });
    const journal = JSON.parse(await readFile(path.join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const upTo = journal.entries.findIndex((e) => e.tag === '0010_currency_sign_flag');
    await writeFile(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  });

  afterAll(async () => {
    await client?.end();
    await services?.cleanup();
    if (before) await rm(before, { recursive: true, force: true });
  });

  const insertReceipt = async (name: string, issues: string[], accepted: Array<{ issue: string; userId: null; at: string }>) => {
    const upload = await client.query<{ id: string }>(
      `INSERT INTO uploads (id, filename, mime_type, size, sha256, lane) VALUES (gen_random_uuid(), $1, 'image/jpeg', 10, $1, 'standard') RETURNING id`,
      [name],
    );
    await client.query(
      `INSERT INTO receipts (upload_id, merchant_name, category, quality, items, raw_text, issues, accepted_issues, valid) VALUES ($1, $2, 'other', 0.9, '[]', '', $3, $4, false)`,
      [upload.rows[0]!.id, name, JSON.stringify(issues), JSON.stringify(accepted)],
    );
  };

  it('gives stored flags and acceptances the new text and leaves the rest', async () => {
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: before });
    const at = '2026-11-01T10:00:00.000Z';
    await insertReceipt('flagged', [ISSUE_TEXTS.totalUnconfirmed, OLD_TEXT, ISSUE_TEXTS.dateNotFound], []);
    await insertReceipt('accepted', [OLD_TEXT], [{ issue: OLD_TEXT, userId: null, at }]);
    await insertReceipt('other', [ISSUE_TEXTS.currencyDefault], [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }]);
    await migrate(db, { migrationsFolder });
    const { rows } = await client.query('SELECT merchant_name, issues, accepted_issues FROM receipts ORDER BY merchant_name');
    expect(rows).toEqual([
      { merchant_name: 'accepted', issues: [ISSUE_TEXTS.currencyWeak], accepted_issues: [{ issue: ISSUE_TEXTS.currencyWeak, userId: null, at }] },
      { merchant_name: 'flagged', issues: [ISSUE_TEXTS.totalUnconfirmed, ISSUE_TEXTS.currencyWeak, ISSUE_TEXTS.dateNotFound], accepted_issues: [] },
      { merchant_name: 'other', issues: [ISSUE_TEXTS.currencyDefault], accepted_issues: [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }] },
    ]);
  });
});
