import { ISSUE_TEXTS } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

/** The flag's text before the migration, as receipts stored it. */
const OLD_TEXT = "Currency not printed; assumed from the receipt's country";

// Real PostgreSQL: receipts stored with the currency-sign flag's old text, raised or accepted,
// carry the new one after the migration; their other flags stay as they were, in their order.
describe('the currency-sign flag migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0010_currency_sign_flag');

  const insertReceipt = async (name: string, issues: string[], accepted: Array<{ issue: string; userId: null; at: string }>) => {
    const upload = await database.query<{ id: string }>(
      `INSERT INTO uploads (id, filename, mime_type, size, sha256, lane) VALUES (gen_random_uuid(), $1, 'image/jpeg', 10, $1, 'standard') RETURNING id`,
      [name],
    );
    await database.query(
      `INSERT INTO receipts (upload_id, merchant_name, category, quality, items, raw_text, issues, accepted_issues, valid) VALUES ($1, $2, 'other', 0.9, '[]', '', $3, $4, false)`,
      [upload.rows[0]!.id, name, JSON.stringify(issues), JSON.stringify(accepted)],
    );
  };

  it('gives stored flags and acceptances the new text and leaves the rest', async () => {
    await database.migrateBefore();
    const at = '2026-11-01T10:00:00.000Z';
    await insertReceipt('flagged', [ISSUE_TEXTS.totalUnconfirmed, OLD_TEXT, ISSUE_TEXTS.dateNotFound], []);
    await insertReceipt('accepted', [OLD_TEXT], [{ issue: OLD_TEXT, userId: null, at }]);
    await insertReceipt('other', [ISSUE_TEXTS.currencyDefault], [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }]);
    await database.migrateAll();
    const { rows } = await database.query('SELECT merchant_name, issues, accepted_issues FROM receipts ORDER BY merchant_name');
    expect(rows).toEqual([
      { merchant_name: 'accepted', issues: [ISSUE_TEXTS.currencyWeak], accepted_issues: [{ issue: ISSUE_TEXTS.currencyWeak, userId: null, at }] },
      { merchant_name: 'flagged', issues: [ISSUE_TEXTS.totalUnconfirmed, ISSUE_TEXTS.currencyWeak, ISSUE_TEXTS.dateNotFound], accepted_issues: [] },
      { merchant_name: 'other', issues: [ISSUE_TEXTS.currencyDefault], accepted_issues: [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }] },
    ]);
  });
});
