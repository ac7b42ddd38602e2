import { ISSUE_TEXTS } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

/** The flag's text before the migration, as receipts stored it. */
const OLD_TEXT = "Currency not printed; assumed from the receipt's country";

// Real PostgreSQL: receipts stored with the currency-sign flag's old text, raised or accepted,
// carry the new one after the migration; their other flags stay as they were, in their order.
describe('the currency-sign flag migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0010_currency_sign_flag');

  it('gives stored flags and acceptances the new text and leaves the rest', async () => {
    await database.migrateBefore();
    const at = '2026-11-01T10:00:00.000Z';
    await database.insertReceipt('flagged', [ISSUE_TEXTS.totalUnconfirmed, OLD_TEXT, ISSUE_TEXTS.dateNotFound], []);
    await database.insertReceipt('accepted', [OLD_TEXT], [{ issue: OLD_TEXT, userId: null, at }]);
    await database.insertReceipt('other', [ISSUE_TEXTS.currencyDefault], [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }]);
    // Through this migration only: a later one stores the flags as codes (issue-codes.migration.test.ts).
    await database.migrateThrough();
    const { rows } = await database.query('SELECT merchant_name, issues, accepted_issues FROM receipts ORDER BY merchant_name');
    expect(rows).toEqual([
      { merchant_name: 'accepted', issues: [ISSUE_TEXTS.currencyWeak], accepted_issues: [{ issue: ISSUE_TEXTS.currencyWeak, userId: null, at }] },
      { merchant_name: 'flagged', issues: [ISSUE_TEXTS.totalUnconfirmed, ISSUE_TEXTS.currencyWeak, ISSUE_TEXTS.dateNotFound], accepted_issues: [] },
      { merchant_name: 'other', issues: [ISSUE_TEXTS.currencyDefault], accepted_issues: [{ issue: ISSUE_TEXTS.currencyDefault, userId: null, at }] },
    ]);
  });
});
