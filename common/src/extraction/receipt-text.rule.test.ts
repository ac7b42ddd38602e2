import { describe, expect, it } from 'vitest';
import { isReceiptText } from './receipt-text.rule.js';

describe('isReceiptText', () => {
  it.each([
    ['Return to previous page', false],
    ['Scanned with MyScanner app — page 1 of 1', false],
    ['CORNER GROCERY\nMILK 2.49\nTOTAL 4.69', true],
    ['Feinkost Albers GmbH\nSUMME EUR 12,34', true],
    ['イオン 株式会社 ホームセンター 東京都千代田区\n合計 ¥1,234', true],
    ['ACME DINER, MAIN STREET\nTOTAL $12', true],
    ['TOTAL', false],
  ])('%j → %s', (text, expected) => {
    expect(isReceiptText(text)).toBe(expected);
  });
});
