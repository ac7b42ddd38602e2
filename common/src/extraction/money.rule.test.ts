import { describe, expect, it } from 'vitest';
import { amountsIn, parseAmount, validMoney } from './money.rule.js';

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
  });
});
