import { FLAG_KINDS, flagOfMessage, issueFlag, renderIssue, type FlagCode } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

/** A message of every kind as receipts stored them before flags had codes, values where the kind has some, and one of no kind. */
const MESSAGES = [
  ...(Object.keys(FLAG_KINDS) as FlagCode[]).filter((code) => !FLAG_KINDS[code].text.includes('{')).map((code) => FLAG_KINDS[code].text as string),
  renderIssue(issueFlag('totalMismatch', { total: '12.00', calculated: '10.40' })),
  renderIssue(issueFlag('suspiciousTaxRate', { rate: '60' })),
  renderIssue(issueFlag('itemsDontAddUp', { sum: '4.50', expected: '9.00' })),
  'Missing total',
];

// Real PostgreSQL: every stored message becomes the flag flagOfMessage reads from it, in its
// order, and every acceptance the flag of its message with who and when kept.
describe('the issue codes migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0017_issue_codes');

  it('stores each message as its code and values, and each acceptance as the flag accepted', async () => {
    await database.migrateBefore();
    const at = '2026-11-01T10:00:00.000Z';
    await database.insertReceipt('every kind', MESSAGES, MESSAGES.map((issue, i) => ({ issue, userId: i % 2 ? null : '00000000-0000-4000-8000-000000000001', at })));
    await database.insertReceipt('none', [], []);
    await database.migrateAll();
    const { rows } = await database.query('SELECT merchant_name, issues, accepted_issues FROM receipts ORDER BY merchant_name');
    expect(rows).toEqual([
      {
        merchant_name: 'every kind',
        issues: MESSAGES.map(flagOfMessage),
        accepted_issues: MESSAGES.map((issue, i) => ({ flag: flagOfMessage(issue), userId: i % 2 ? null : '00000000-0000-4000-8000-000000000001', at })),
      },
      { merchant_name: 'none', issues: [], accepted_issues: [] },
    ]);
    // Each message is kept: rendered again, it is the message stored.
    expect((rows[0] as { issues: Parameters<typeof renderIssue>[0][] }).issues.map(renderIssue)).toEqual(MESSAGES);
    // The messages cover every code.
    expect(new Set(MESSAGES.map((message) => flagOfMessage(message).code))).toEqual(new Set(Object.keys(FLAG_KINDS)));
  });
});
