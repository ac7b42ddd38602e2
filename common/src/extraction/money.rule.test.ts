import { describe, expect, it } from 'vitest';
import { amountReader, amountsIn, parseAmount, validMoney, wholeAmountsIn, withinMoneyBounds } from './money.rule.js';

describe('money', () => {
  it.each([
    ['10.40', 10.4],
    ['RM7.00', 7],
    ['RM 34.80', 34.8],
    ['$8.70', 8.7],
    ['1,007.50', 1007.5],
    ['Total Sales Incl GST 6:80', 6.8],
    ['TOTAL 12,30', 12.3],
    ['-1.73', -1.73],
    ['no money here', null],
    ['44.890', null],
    ['Doc 2018031462170048213', null],
  ])('parseAmount(%j) = %s', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it('finds every amount on a line', () => {
    expect(amountsIn('SR 6% 6.51 0.39')).toEqual([6.51, 0.39]);
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
    expect(amountsIn('Time: 15:12:00 Total 8.60')).toEqual([8.6]);
    expect(amountsIn('07:12PM Total 29.15')).toEqual([29.15]);
    expect(amountsIn('7:12 p.m. Total 29.15')).toEqual([29.15]);
    // A colon is still OCR's decimal point in an amount.
    expect(amountsIn('Total Sales Incl GST 6:80')).toEqual([6.8]);
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
    ['合計 ¥3,872', [3872]],
    // OCR puts a space after the thousands comma.
    ['合計 ¥2, 716', [2716]],
    ['Total $84.500', [84500]],
    ['小計 1 339円', [1339]],
    ['\\2,967', [2967]],
    ['TOTAL 12.50', []],
    ['4901234567890123', []],
    ['税 8% 219', [8, 219]],
  ])('%j → %j', (line, amounts) => {
    expect(wholeAmountsIn(line)).toEqual(amounts);
  });

  it('picks the reader by currency', () => {
    expect(amountReader('JPY')('計 1,240')).toEqual([1240]);
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
