import { describe, expect, it } from 'vitest';
import { DEMO_RATES, SAMPLE_BASE_PRICE, SAMPLE_ITEM_COUNT, SAMPLE_MERCHANT, convertDemo, sampleExport } from './sample-receipt.js';
import { totalMismatch } from '../extraction/validation.rules.js';

describe('the home page sample as a workbook source', () => {
  it.each(Object.keys(DEMO_RATES))('in %s: the shown total, 12 items, and it adds up', (currency) => {
    const [source] = sampleExport(currency);
    const r = source!.receipt;
    expect(r.merchantName).toBe(SAMPLE_MERCHANT);
    expect(r.items).toHaveLength(SAMPLE_ITEM_COUNT);
    expect(r.total).toBe(convertDemo(SAMPLE_BASE_PRICE, currency));
    expect(r.currency ?? 'USD').toBe(currency);
    expect(totalMismatch(r)).toBeNull();
  });

  it('items sum to the subtotal in USD', () => {
    const r = sampleExport('USD')[0]!.receipt;
    expect(Math.round(r.items.reduce((s, i) => s + (i.amount ?? 0), 0) * 100) / 100).toBe(r.subtotal);
    expect(r.subtotal! + r.tax!).toBeCloseTo(SAMPLE_BASE_PRICE, 2);
  });

  it('falls back to USD for a currency without a demo rate', () => {
    expect(sampleExport('MYR')[0]!.receipt.currency).toBeUndefined();
  });
});
