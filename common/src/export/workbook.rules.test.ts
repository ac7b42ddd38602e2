import { describe, expect, it } from 'vitest';
import { assertCellText, fitCellText, validateSheetNames, WORKBOOK_ERRORS } from './workbook.rules.js';

describe('validateSheetNames', () => {
  it('accepts the export sheets', () => {
    expect(() => validateSheetNames(['Receipts', 'Validation Issues', 'Summary'])).not.toThrow();
  });

  it.each([
    [[], WORKBOOK_ERRORS.empty],
    [['x'.repeat(32)], WORKBOOK_ERRORS.tooLong],
    [[''], WORKBOOK_ERRORS.tooLong],
    [['Q1: costs'], WORKBOOK_ERRORS.illegal],
    [['a/b'], WORKBOOK_ERRORS.illegal],
    [['a\\b'], WORKBOOK_ERRORS.illegal],
    [['why?'], WORKBOOK_ERRORS.illegal],
    [['all*'], WORKBOOK_ERRORS.illegal],
    [['[x]'], WORKBOOK_ERRORS.illegal],
    [['Receipts', 'receipts'], WORKBOOK_ERRORS.duplicate],
  ])('%j → %s', (names, message) => {
    expect(() => validateSheetNames(names)).toThrow(message);
  });

  it('allows exactly 31 characters', () => {
    expect(() => validateSheetNames(['x'.repeat(31)])).not.toThrow();
  });
});

describe('cell text', () => {
  it('cuts text longer than a cell holds', () => {
    const cut = fitCellText('a'.repeat(40_000));
    expect(cut).toHaveLength(32767);
    expect(cut.endsWith('...')).toBe(true);
    expect(fitCellText('short')).toBe('short');
  });

  it('refuses it when asked to be strict', () => {
    expect(() => assertCellText('a'.repeat(32768))).toThrow(WORKBOOK_ERRORS.textTooLong);
    expect(() => assertCellText('a'.repeat(32767))).not.toThrow();
  });
});
