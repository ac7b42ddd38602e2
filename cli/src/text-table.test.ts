import { describe, expect, it } from 'vitest';
import { formatMoney, textTable } from './text-table.js';

describe('textTable', () => {
  it('pads each column to its widest cell, numbers to the right', () => {
    expect(textTable(['file', 'total'], [['a.jpg', '10.40 USD'], ['receipts/b.png', '3.00 EUR']], [1]).split('\n')).toEqual([
      'file                total',
      '--------------  ---------',
      'a.jpg           10.40 USD',
      'receipts/b.png   3.00 EUR',
    ]);
  });
});

describe('formatMoney', () => {
  it('shows two decimals and the currency, USD when the receipt names none', () => {
    expect(formatMoney(10.4, 'EUR')).toBe('10.40 EUR');
    expect(formatMoney(3, undefined)).toBe('3.00 USD');
    expect(formatMoney(null, 'EUR')).toBe('');
    expect(formatMoney(undefined, undefined)).toBe('');
  });
});
