import { describe, expect, it } from 'vitest';
import { amountReader, amountsIn, parseAmount, validMoney, wholeAmountsIn, withinMoneyBounds } from './money.rule.js';

describe('money', () => {
  it.each([
    ['10.40', 10.4],
    ['RM7.00', 7],
    ['RM 34.80', 34.8],
    ['$8.70', 8.7],
    ['1,007.50', 1007.5],
    ['Total Sales Incl GST 5:80', 5.8],
    ['TOTAL 12,30', 12.3],
    ['-1.73', -1.73],
    ['no money here', null],
    ['39.860', null],
    ['Doc 2018020851320073885', null],
  ])('parseAmount(%j) = %s', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it('finds every amount on a line', () => {
    expect(amountsIn('SR 6% 5.57 0.33')).toEqual([5.57, 0.33]);
    expect(amountsIn('Total 1,234.50 RM 2.00')).toEqual([1234.5, 2]);
  });

  it.each([
    [12.345, 12.35],
    [-1, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['RM5.00', 5],
    [null, null],
  ])('validMoney(%s) = %s', (input, value) => {
    expect(validMoney(input)).toBe(value);
  });
});

describe('money is not a time', () => {
  it('skips clock times', () => {
    expect(amountsIn('Time: 14:49:00 Total 9.10')).toEqual([9.1]);
    expect(amountsIn('06:33PM Total 30.94')).toEqual([30.94]);
    expect(amountsIn('6:33 p.m. Total 30.94')).toEqual([30.94]);
    // A colon is still OCR's decimal point in an amount.
    expect(amountsIn('Total Sales Incl GST 5:80')).toEqual([5.8]);
  });
});

describe('no shared regex state', () => {
  // A global pattern used with exec() kept its lastIndex, and the next matchAll() started there:
  // after validMoney('10.40') the next receipt lost its total.
  it('reads a line the same after parsing another amount', () => {
    expect(validMoney('10.40')).toBe(10.4);
    expect(amountsIn('TOTAL 9.54')).toEqual([9.54]);
    expect(parseAmount('1.00')).toBe(1);
    expect(amountsIn('A 1.00 B 2.00')).toEqual([1, 2]);
    expect(amountsIn('A 1.00 B 2.00')).toEqual([1, 2]);
  });
});

describe('whole amounts (JPY, CLP)', () => {
  it.each<[string, number[]]>([
    ['合計 ¥4,389', [4389]],
    // OCR puts a space after the thousands comma.
    ['合計 ¥2, 716', [2716]],
    ['Total $100.300', [100300]],
    ['小計 1 162円', [1162]],
    ['\\2,967', [2967]],
    ['TOTAL 12.50', []],
    ['4901234567890123', []],
    ['税 8% 219', [8, 219]],
  ])('%j → %j', (line, amounts) => {
    expect(wholeAmountsIn(line)).toEqual(amounts);
  });

  it('picks the reader by currency', () => {
    expect(amountReader('JPY')('計 1,076')).toEqual([1076]);
    expect(amountReader('EUR')('Summe 1,07')).toEqual([1.07]);
  });
});

describe('withinMoneyBounds', () => {
  it('drops amounts past the maximum and keeps the rest', () => {
    const receipt = {
      category: 'other' as const,
      quality: 0.9,
      rawText: '',
      subtotal: 12.5,
      total: 1e12,
      items: [{ description: 'x', qty: 1, unitPrice: 2e9, amount: -3e9 }, { description: 'y', amount: 12.5 }],
    };
    const bounded = withinMoneyBounds(receipt);
    expect(bounded.total).toBeUndefined();
    expect(bounded.subtotal).toBe(12.5);
    expect(bounded.items).toEqual([{ description: 'x', qty: 1, unitPrice: null, amount: null }, { description: 'y', unitPrice: undefined, amount: 12.5 }]);
  });
});
