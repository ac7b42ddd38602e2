import { describe, expect, it } from 'vitest';
import { moneyNumFmt, plainAmount } from './money-format.rule.js';

describe('moneyNumFmt', () => {
  it.each([
    ['USD', '"$"#,##0.00'],
    ['EUR', '"€"#,##0.00'],
    ['GBP', '"£"#,##0.00'],
    ['JPY', '"¥"#,##0'],
    ['KRW', '"₩"#,##0'],
    ['CAD', '"CA$"#,##0.00'],
    ['PHP', '"₱"#,##0.00'],
    ['MYR', '"MYR "#,##0.00'],
    ['BHD', '"BHD "#,##0.000'],
    ['not a code', '"$"#,##0.00'],
  ])('%s → %s', (currency, format) => {
    expect(moneyNumFmt(currency)).toBe(format);
  });
});

describe('plainAmount', () => {
  it.each([
    [10.4, 'MYR', '10.40'],
    [-10.4, 'USD', '-10.40'],
    [-1234.5, 'EUR', '-1234.50'],
    [-1200, 'JPY', '-1200'],
    [-0.001, 'USD', '0.00'],
  ])('%d %s → %s', (value, currency, text) => {
    expect(plainAmount(value, currency)).toBe(text);
  });
});
