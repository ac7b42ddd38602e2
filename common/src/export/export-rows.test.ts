import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../receipt.schema.js';
import { EXPORT_COLUMNS, emptyTally, exportRow, formatQuality, issueRow, summaryRows, tallyReceipt } from './export-rows.js';

const receipt = (over: Partial<ReceiptView> = {}): ReceiptView => ({
  id: '00000000-0000-4000-8000-000000000001',
  merchantName: 'HON HWA HARDWARE',
  date: '2017-09-21',
  total: 10.4,
  subtotal: 9.81,
  tax: 0.59,
  category: 'retail',
  quality: 0.9,
  items: [],
  rawText: 'HON HWA HARDWARE...',
  issues: [],
  valid: true,
  ...over,
});

describe('export rows', () => {
  it('has filename, every receipt field and 20 item slots of four columns', () => {
    expect(EXPORT_COLUMNS.slice(0, 3)).toEqual(['filename', 'merchantName', 'date']);
    expect(EXPORT_COLUMNS.filter((c) => c.startsWith('item_'))).toHaveLength(80);
    expect(EXPORT_COLUMNS.at(-1)).toBe('item_20_amount');
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
    const row = issueRow({ filename: 'b.jpg', receipt: receipt({ issues: ['Invalid date format', 'Zero or negative total amount'], valid: false, quality: 0.456 }) });
    expect(row).toMatchObject({ filename: 'b.jpg', quality: '46%', issues: 'Invalid date format; Zero or negative total amount' });
    expect(issueRow({ filename: 'c.jpg', receipt: receipt({ quality: 0.3, valid: false }) }).issues).toBe('Quality below 60%');
    expect(formatQuality(Number.NaN)).toBe('N/A');
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
