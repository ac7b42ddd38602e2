import { describe, expect, it } from 'vitest';
import { fillMonths, SPENDING_MAX_FILLED_MONTHS, spendingSummary, type SpendingRow } from './spending.rules.js';
import { spendingQuerySchema } from './spending.schema.js';

const row = (set: SpendingRow['set'], currency: string | null, key: string | null, total: number | null, receipts: number, label: string | null = null): SpendingRow => ({
  set,
  currency,
  key,
  label,
  total,
  receipts,
  notCounted: 0,
});
const month = (m: string, total: number, receipts = 1) => ({ month: m, total, receipts });

describe('fillMonths', () => {
  it.each([
    ['nothing', [], []],
    ['one month', [month('2024-03', 5)], [month('2024-03', 5)]],
    ['sorted, no gap', [month('2024-04', 2), month('2024-03', 1)], [month('2024-03', 1), month('2024-04', 2)]],
    [
      'a gap filled with 0',
      [month('2024-01', 1), month('2024-03', 3)],
      [month('2024-01', 1), month('2024-02', 0, 0), month('2024-03', 3)],
    ],
    [
      'across a year end',
      [month('2023-11', 1), month('2024-01', 2)],
      [month('2023-11', 1), month('2023-12', 0, 0), month('2024-01', 2)],
    ],
  ])('%s', (_name, months, expected) => {
    expect(fillMonths(months)).toEqual(expected);
  });

  it('leaves the gaps of a span too long to show as bars', () => {
    const months = [month('2019-01', 1), month('2024-06', 2)];
    expect(fillMonths(months)).toEqual(months);
    expect(fillMonths([month('2020-01', 1), month('2024-12', 2)])).toHaveLength(SPENDING_MAX_FILLED_MONTHS);
  });
});

describe('spendingSummary', () => {
  it('gives each currency its own totals, the one with most receipts first', () => {
    const summary = spendingSummary([
      row('merchant', 'EUR', null, 4, 2),
      row('all', null, null, null, 0),
      row('currency', 'USD', null, 900, 1),
      row('currency', 'EUR', null, 30, 3),
      row('month', 'EUR', '2024-03', 26, 2),
      row('month', 'EUR', '2024-01', 4, 1),
      row('category', 'EUR', 'grocery', 10, 2),
      row('category', 'EUR', 'restaurant', 20, 1),
      row('merchant', 'EUR', 'cafe', 26, 1, 'Cafe'),
      row('month', 'USD', '2024-02', 900, 1),
      row('category', 'USD', 'gas', 900, 1),
      row('merchant', 'USD', 'shell', 900, 1, 'SHELL'),
    ]);
    expect(summary.currencies.map((c) => c.currency)).toEqual(['EUR', 'USD']);
    expect(summary.currencies[0]).toEqual({
      currency: 'EUR',
      total: 30,
      receipts: 3,
      months: [month('2024-01', 4), month('2024-02', 0, 0), month('2024-03', 26, 2)],
      categories: [
        { category: 'restaurant', total: 20, receipts: 1 },
        { category: 'grocery', total: 10, receipts: 2 },
      ],
      // "Other" last even when it is not the smallest.
      merchants: [
        { merchant: 'Cafe', total: 26, receipts: 1 },
        { merchant: null, total: 4, receipts: 2 },
      ],
    });
    expect(summary.currencies[1]!.merchants).toEqual([{ merchant: 'SHELL', total: 900, receipts: 1 }]);
  });

  it('says how many receipts nothing counts', () => {
    expect(spendingSummary([{ ...row('all', null, null, null, 0), notCounted: 3 }])).toEqual({ currencies: [], notCounted: 3 });
  });

  it('breaks ties in receipts by currency code', () => {
    const summary = spendingSummary([row('currency', 'USD', null, 1, 2), row('currency', 'CHF', null, 1, 2), row('currency', 'AUD', null, 1, 3)]);
    expect(summary.currencies.map((c) => c.currency)).toEqual(['AUD', 'CHF', 'USD']);
  });
});

describe('spendingQuerySchema', () => {
  it('takes the library filters and refuses what they refuse', () => {
    expect(spendingQuerySchema.parse({ from: '2024-01-01', to: '2024-12-31', category: 'gas', tag: ' car ', currency: 'eur', valid: 'true', q: ' shell ' })).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
      category: 'gas',
      tag: 'car',
      currency: 'EUR',
      valid: true,
      q: 'shell',
    });
    expect(spendingQuerySchema.safeParse({ from: '1/2/2024' }).success).toBe(false);
    // A category of one's own is any name (the owner's list decides); an empty one or a tag with a comma is refused.
    expect(spendingQuerySchema.safeParse({ category: 'Office supplies' }).success).toBe(true);
    expect(spendingQuerySchema.safeParse({ category: ' ' }).success).toBe(false);
    expect(spendingQuerySchema.safeParse({ tag: 'a,b' }).success).toBe(false);
  });
});
