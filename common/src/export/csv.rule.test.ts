import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv.rule.js';

describe('csv', () => {
  it.each([
    [null, ''],
    [10.4, '10.4'],
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1', "'+1"],
    ['-10.40', '-10.40'],
    ['-1-1', "'-1-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    [' =1+1', "' =1+1"],
    ['\t=1+1', "'\t=1+1"],
  ])('%j → %s', (value, text) => {
    expect(csvField(value)).toBe(text);
  });

  it('ends a record with CRLF and writes signed amounts as text untouched', () => {
    expect(csvLine(['01/02/2024', 'Shop, Inc', '-10.40'])).toBe('01/02/2024,"Shop, Inc",-10.40\r\n');
  });
});
