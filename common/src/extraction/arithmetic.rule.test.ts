import { describe, expect, it } from 'vitest';
import { itemLinesHold, itemsAgree, taxFromSum, taxRatesThatHold } from './arithmetic.rule.js';

describe('items agree with the receipt sums', () => {
  it.each([
    [10.5, 3, 10.5, 11.1, true],
    [10.5, 3, null, 10.5, true],
    [10.52, 3, 10.5, null, true],
    [10.54, 3, 10.5, null, false],
    [9.0, 3, 10.5, 11.1, false],
    [10.5, 3, null, null, false],
  ])('sum %d of %d items vs subtotal %s, total %s → %s', (sum, count, subtotal, total, agree) => {
    expect(itemsAgree(sum, count, subtotal, total)).toBe(agree);
  });
});

describe('item lines multiply out', () => {
  const item = (qty: number | null, unitPrice: number | null, amount: number | null) => ({ description: 'x', qty, unitPrice, amount });
  it.each([
    [[item(2, 1.5, 3)], true],
    [[item(0.532, 3.99, 2.12)], true],
    [[item(1, 2, -2)], true],
    [[item(null, 1.5, 3), item(2, null, 3), item(2, 1.5, null)], true],
    [[item(2, 1.5, 3), item(3, 1.5, 3)], false],
    [[item(2, 1.5, 30)], false],
  ])('%j → %s', (items, hold) => {
    expect(itemLinesHold(items)).toBe(hold);
  });
});

describe('taxFromSum: what the subtotal lacks of the total', () => {
  it.each<[number | null, number | null, string | undefined, number | null]>([
    [27.5, 29.62, 'USD', 2.12],
    [100, 119, 'EUR', 19],
    [100, 100.01, 'USD', null],
    [100, 130, 'USD', null],
    [100, 98, 'USD', null],
    [null, 29.62, 'USD', null],
    [27.5, null, 'USD', null],
  ])('subtotal %s, total %s (%s) → %s', (subtotal, total, currency, tax) => {
    expect(taxFromSum(subtotal, total, currency)).toBe(tax);
  });
});

describe('taxRatesThatHold: rows only while they make the tax', () => {
  const rows = [
    { rate: 19, net: 0.75, tax: 0.14, gross: 0.89 },
    { rate: 7, net: 11.36, tax: 0.8, gross: 12.16 },
  ];
  it.each<[number | null | undefined, typeof rows | undefined, number]>([
    [0.94, rows, 2],
    // A cent a row of rounding.
    [0.95, rows, 2],
    // A person typed another tax: the rows say nothing true any more.
    [1.2, rows, 0],
    [null, rows, 0],
    [0.94, undefined, 0],
    [0.94, [], 0],
  ])('tax %s', (tax, taxRates, kept) => {
    expect(taxRatesThatHold({ tax, taxRates })).toHaveLength(kept);
  });
});
