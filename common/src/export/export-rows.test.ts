import { describe, expect, it } from 'vitest';
import { issueFlag, shownIssues } from '../extraction/issue-codes.rules.js';
import type { ReceiptView } from '../receipt.schema.js';
import { EXPORT_COLUMNS, emptyTally, exportRow, formatQuality, ISSUE_COLUMNS, issueRow, summaryRows, tallyReceipt } from './export-rows.js';

const receipt = (over: Partial<ReceiptView> = {}): ReceiptView => ({
  id: '00000000-0000-4000-8000-000000000001',
  merchantName: 'SRI BINTANG HARDWARE',
  date: '2017-09-21',
  total: 10.4,
  subtotal: 9.81,
  tax: 0.59,
  category: 'retail',
  quality: 0.9,
  items: [],
  rawText: 'SRI BINTANG HARDWARE...',
  issues: [],
  flags: [],
  valid: true,
  ...over,
});

describe('export rows', () => {
  it('has filename, every receipt field and 20 item slots of four columns, then three VAT rates, the tags and the status', () => {
    expect(EXPORT_COLUMNS.slice(0, 3)).toEqual(['filename', 'merchantName', 'date']);
    expect(EXPORT_COLUMNS.filter((c) => c.startsWith('item_'))).toHaveLength(80);
    expect(EXPORT_COLUMNS.slice(EXPORT_COLUMNS.indexOf('item_20_amount') + 1)).toEqual([
      ...['vat_1_rate', 'vat_1_net', 'vat_1_tax', 'vat_1_gross'],
      ...['vat_2_rate', 'vat_2_net', 'vat_2_tax', 'vat_2_gross'],
      ...['vat_3_rate', 'vat_3_net', 'vat_3_tax', 'vat_3_gross'],
      'tags',
      'status',
    ]);
  });

  it.each([
    ['no tags, no flags', {}, { tags: null, status: 'Ready' }],
    ['tags', { tags: ['client A', 'travel'] }, { tags: 'client A, travel', status: 'Ready' }],
    ['a flag a person accepted', { acceptedIssues: [{ issue: 'Date out of reasonable range', userId: null, at: '2024-01-01T00:00:00Z' }] }, { tags: null, status: 'Checked by you' }],
  ] as const)('says a receipt’s tags and status: %s', (_, over, expected) => {
    expect(exportRow({ filename: 'e.jpg', receipt: receipt(over as Partial<ReceiptView>) })).toMatchObject(expected);
  });

  it('writes net, tax and gross per VAT rate as the receipt prints them, in their slots', () => {
    const taxRates = [
      { rate: 19, net: 0.75, tax: 0.14, gross: 0.89 },
      { rate: 7, net: 11.36, tax: 0.8, gross: 12.16 },
    ];
    const row = exportRow({ filename: 'e.jpg', receipt: receipt({ currency: 'EUR', tax: 0.94, total: 13.05, taxRates }) });
    expect(row).toMatchObject({ vat_1_rate: 19, vat_1_net: 0.75, vat_1_tax: 0.14, vat_1_gross: 0.89, vat_2_rate: 7, vat_2_net: 11.36, vat_2_tax: 0.8, vat_2_gross: 12.16 });
    expect([row.vat_3_rate, row.vat_3_net, row.vat_3_tax, row.vat_3_gross]).toEqual([null, null, null, null]);
    expect(exportRow({ filename: 'f.jpg', receipt: receipt({}) }).vat_1_gross).toBeNull();
  });

  it('fills slots in order, names empty descriptions and stops at 20 items', () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ description: i === 0 ? '' : `thing ${i}`, qty: 1, unitPrice: i, amount: i }));
    const row = exportRow({ filename: null, receipt: receipt({ items }) });
    expect(row.filename).toBe('unknown.pdf');
    expect(row.item_1_desc).toBe('Unknown Item');
    expect(row.item_20_desc).toBe('thing 19');
    expect(row).not.toHaveProperty('item_21_desc');
    expect(row.currency).toBe('USD');
    expect(exportRow({ filename: 'a.jpg', receipt: receipt({ currency: 'MYR' }) }).currency).toBe('MYR');
  });

  it('writes issue rows with the quality as a percentage', () => {
    const row = issueRow({ filename: 'b.jpg', receipt: receipt({ ...shownIssues([issueFlag('invalidDate'), issueFlag('nonPositiveTotal')]), valid: false, quality: 0.456 }) });
    expect(row).toMatchObject({ filename: 'b.jpg', quality: '46%', issues: 'Invalid date format; Zero or negative total amount; Quality below 60%' });
    expect(issueRow({ filename: 'c.jpg', receipt: receipt({ quality: 0.3, valid: false }) }).issues).toBe('Quality below 60%');
    expect(formatQuality(Number.NaN)).toBe('N/A');
  });

  it('gives the issue row the date, tax and currency to work from, and lists only the flags nobody accepted', () => {
    const row = issueRow({
      filename: 'd.jpg',
      receipt: receipt({
        date: '2019-03-04',
        tax: 1.5,
        total: 12,
        currency: 'EUR',
        ...shownIssues([issueFlag('dateOutOfRange'), issueFlag('totalMismatch', { total: '12.00', calculated: '11.00' })]),
        acceptedIssues: [{ issue: 'Date out of reasonable range', userId: null, at: '2026-01-01T00:00:00.000Z' }],
        valid: false,
      }),
    });
    expect(Object.keys(row)).toEqual([...ISSUE_COLUMNS]);
    expect(row).toMatchObject({ date: '2019-03-04', total: 12, tax: 1.5, currency: 'EUR', issues: 'Total mismatch: 12.00 vs calculated 11.00' });
    expect(issueRow({ filename: 'e.jpg', receipt: receipt({ valid: false, ...shownIssues([issueFlag('invalidDate')]) }) }).currency).toBe('USD');
  });

  it('summarises the tally', () => {
    const tally = emptyTally();
    tallyReceipt(tally, receipt());
    tallyReceipt(tally, receipt({ valid: false, quality: 0.5 }));
    tallyReceipt(tally, receipt({ quality: 0.7 }));
    expect(summaryRows(tally)).toEqual([
      { metric: 'Total processed', value: 3 },
      { metric: 'Successfully exported', value: 2 },
      { metric: 'Validation issues', value: 1 },
      { metric: 'Success rate %', value: 66.7 },
      { metric: 'Average quality %', value: 70 },
    ]);
    expect(summaryRows(emptyTally())[3]).toEqual({ metric: 'Success rate %', value: 0 });
  });
});
