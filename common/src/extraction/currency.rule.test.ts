import { describe, expect, it } from 'vitest';
import { detectCurrency } from './currency.rule.js';

describe('detectCurrency', () => {
  it.each([
    ['eur', 'Total 5.00 $', undefined, 'EUR'],
    ['XYZ', 'Total €5.00', undefined, 'EUR'],
    [undefined, 'TOTAL RM7.00', undefined, 'MYR'],
    [undefined, 'Total £3.20', undefined, 'GBP'],
    [undefined, 'Total ¥500', undefined, 'JPY'],
    [undefined, 'Total ₱250.00', undefined, 'PHP'],
    [undefined, 'Total ₹99.00', undefined, 'INR'],
    [undefined, 'Total $8.70', undefined, 'USD'],
    [undefined, 'Total $8.70', 'SGD', 'SGD'],
    [undefined, 'Total SGD 12.00', undefined, 'SGD'],
    [undefined, 'AEON CO. (M) BHD 55100 KUALA LUMPUR Total 5.90', undefined, 'MYR'],
    [undefined, 'POPULAR BOOK CO. (M) SDN BHD Slip No.: $070058756 Total $4.00', undefined, 'MYR'],
    [undefined, 'AIK HUAT HARDWARE ENTERPRISE SON BHD TOTAL 16.00', undefined, 'MYR'],
    [undefined, 'MR DIY TRADING BERHAD Total 5.90', undefined, 'MYR'],
    [undefined, 'Total 5.90', 'CHF', 'CHF'],
    [undefined, '£7 000008190801 AEON KUALA LUMPUR Total 5.90', undefined, 'MYR'],
    [undefined, 'Total 5.90', undefined, 'USD'],
    [undefined, 'Total 5.90', 'NOPE', 'USD'],
  ])('field %s, text %j, hint %s → %s', (field, text, hint, code) => {
    expect(detectCurrency(field, text, hint)).toBe(code);
  });
});
