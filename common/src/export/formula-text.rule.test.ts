import { describe, expect, it } from 'vitest';
import { formulaSafe } from './formula-text.rule.js';

describe('formulaSafe', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`, 'HYPERLINK("http://x","y")'],
    ['+1+cmd|\' /C calc\'!A0', `'+1+cmd|' /C calc'!A0`, "1+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3", '2+3'],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)", 'SUM(A1:A9)'],
    ['\t=1+1', "'\t=1+1", '1+1'],
    ['\tTab first', "'\tTab first", 'Tab first'],
    ['\rCR first', "'\rCR first", 'CR first'],
    ['\nLF first', "'\nLF first", 'LF first'],
    ['  =1+1', "'  =1+1", '1+1'],
    ['\u00a0@SUM(A1)', "'\u00a0@SUM(A1)", 'SUM(A1)'],
    [' \t -1+1', "' \t -1+1", '1+1'],
    ['＝1+1', "'＝1+1", '1+1'],
    ['=+-@x', "'=+-@x", 'x'],
  ])('%j: apostrophe → %j, drop → %j', (text, apostrophe, dropped) => {
    expect(formulaSafe(text)).toBe(apostrophe);
    expect(formulaSafe(text, 'drop')).toBe(dropped);
  });

  it.each(['plain', 'Corner Pantry', 'a=b', 'A-1', 'RE-2024/17', '-10.40', '-7', '10.40', '', ' spaced', "'quoted"])('leaves %j as it is', (text) => {
    expect(formulaSafe(text)).toBe(text);
    expect(formulaSafe(text, 'drop')).toBe(text);
  });
});
