import { describe, expect, it } from 'vitest';
import { CURRENCIES, formatMoney } from '@receipts/common';
import { convertDemo, DEMO_RATES, demoCurrency, formatDemo, SAMPLE_BASE_PRICE } from './currency.js';

describe('currency options', () => {
  it('offers the spec’s first 20 in order, each with a demo rate', () => {
    expect(CURRENCIES.map((c) => c.value)).toEqual(
      'USD EUR GBP JPY CAD AUD CHF CNY INR SGD HKD SEK NOK DKK PLN BRL MXN KRW THB PHP'.split(' '),
    );
    for (const c of CURRENCIES) expect(DEMO_RATES[c.value]).toBeGreaterThan(0);
  });
});

describe('formatMoney', () => {
  it.each([
    [1234.5, 'USD', '$1,234.50'],
    [84.12, 'EUR', '€84.12'],
    [9253.2, 'JPY', '¥9,253'],
    [100945.5, 'KRW', '₩100,946'],
    [12, 'MYR', 'RM 12.00'],
    [5, 'XYZ', 'XYZ 5.00'],
    [-3.456, 'USD', '-$3.46'],
  ])('%d %s → %s', (amount, code, text) => {
    expect(formatMoney(amount, code)).toBe(text);
  });
});

describe('demo conversion at fixed rates (spec §9)', () => {
  it.each([
    ['USD', '$84.12'],
    ['EUR', '€71.50'],
    ['GBP', '£63.09'],
    ['JPY', '¥9,253'],
    ['KRW', '₩100,944'],
    ['INR', '₹6,309.00'],
    ['PHP', '₱4,206.00'],
  ])('the sample price in %s is %s', (code, text) => {
    expect(formatDemo(SAMPLE_BASE_PRICE, code)).toBe(text);
  });

  it('rounds JPY and KRW to whole numbers and others to cents', () => {
    expect(convertDemo(1.99, 'JPY')).toBe(219);
    expect(convertDemo(1.99, 'KRW')).toBe(2388);
    expect(convertDemo(1.99, 'EUR')).toBe(1.69);
  });

  it('shows USD for a currency without a demo rate', () => {
    expect(demoCurrency('MYR')).toBe('USD');
    expect(formatDemo(10, 'MYR')).toBe('$10.00');
  });
});
