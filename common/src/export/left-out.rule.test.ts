import { describe, expect, it } from 'vitest';
import { issueFlag, shownIssues } from '../extraction/issue-codes.rules.js';
import type { ReceiptView } from '../receipt.schema.js';
import { currencyFileName, leftOutHeading, leftOutLine } from './left-out.rule.js';

const receipt = (fields: Partial<ReceiptView>): ReceiptView =>
  ({ id: '00000000-0000-4000-8000-000000000001', merchantName: 'Corner Shop', date: '2024-05-01', currency: 'EUR', total: 4.2, quality: 0.9, items: [], issues: [], flags: [], valid: true, ...fields }) as ReceiptView;

describe('left-out note', () => {
  it.each([
    ['a receipt that needs review, with its open flags', { valid: false, ...shownIssues([issueFlag('legacy', { text: 'Missing total' }), issueFlag('dateNotFound')]) }, 'cafe.png (2024-05-01, Corner Shop): needs review (Missing total; Date not found).\r\n'],
    [
      'a flag a person accepted is not named',
      { valid: false, ...shownIssues([issueFlag('legacy', { text: 'Missing total' }), issueFlag('dateNotFound')]), acceptedIssues: [{ issue: 'Date not found', userId: null, at: '2024-05-02T00:00:00Z' }] },
      'cafe.png (2024-05-01, Corner Shop): needs review (Missing total).\r\n',
    ],
    ['low quality is a flag too', { valid: false, quality: 0.3 }, 'cafe.png (2024-05-01, Corner Shop): needs review (Quality below 60%).\r\n'],
    ['a ready receipt without a total', { total: null }, 'cafe.png (2024-05-01, Corner Shop): no total.\r\n'],
    ['a ready receipt without a date or a total', { date: null, total: null, merchantName: null }, 'cafe.png (no date, unknown merchant): no date and no total.\r\n'],
  ])('%s', (_, fields, line) => {
    expect(leftOutLine({ filename: 'cafe.png', receipt: receipt(fields as Partial<ReceiptView>) })).toBe(line);
  });

  it('keeps a hostile file name on one line', () => {
    expect(leftOutLine({ filename: 'a\r\nb.png', receipt: receipt({ total: null }) })).toBe('a b.png (2024-05-01, Corner Shop): no total.\r\n');
  });

  it('counts in its heading', () => {
    expect(leftOutHeading(1, 'QuickBooks')).toMatch(/^1 receipt is not in the QuickBooks file\./);
    expect(leftOutHeading(3, 'Xero')).toMatch(/^3 receipts are not in the Xero file\./);
  });

  it('names one currency’s file', () => {
    expect(currencyFileName('March', 'GBP', 'csv')).toBe('March-GBP.csv');
  });
});
