import { describe, expect, it } from 'vitest';
import { FLAG_KINDS, flagOfMessage, issueFlag, renderIssue, type FlagCode } from './issue-codes.rules.js';

describe('flags rendered from their code and values', () => {
  it.each<[FlagCode, Record<string, string>, string]>([
    ['missingKeyFields', {}, 'Missing all key fields (merchant, total, and date)'],
    ['totalMismatch', { total: '110.00', calculated: '111.20' }, 'Total mismatch: 110.00 vs calculated 111.20'],
    ['invalidDate', {}, 'Invalid date format'],
    ['dateOutOfRange', {}, 'Date out of reasonable range'],
    ['nonPositiveTotal', {}, 'Zero or negative total amount'],
    ['largeTotal', {}, 'Unusually large total amount'],
    ['suspiciousTaxRate', { rate: '51' }, 'Suspicious tax rate: 51%'],
    ['itemsDontAddUp', { sum: '4.50', expected: '9.00' }, 'Items add up to 4.50, not 9.00'],
    ['totalNotFound', {}, 'Total not found'],
    ['totalUnconfirmed', {}, 'Total not confirmed by subtotal and tax'],
    ['totalHandwritten', {}, 'Total may be handwritten'],
    ['dateNotFound', {}, 'Date not found'],
    ['dateEitherWay', {}, 'Day and month could be either way'],
    ['dateFarFromOthers', {}, "Date far from the receipt's other dates"],
    ['merchantNotFound', {}, 'Merchant not found'],
    ['merchantBelowHeader', {}, 'Merchant read from a line below the header'],
    ['merchantUnconfirmed', {}, 'Merchant not confirmed by a business word or known chain'],
    ['merchantMayContinue', {}, 'Merchant name may continue on the next line'],
    ['currencyAssumed', {}, 'Currency not printed; assumed from your choice'],
    ['currencyDefault', {}, 'Currency not printed; assumed USD'],
    ['currencyWeak', {}, 'Currency sign printed, but several currencies use it'],
    ['lowQuality', {}, 'Quality below 60%'],
    ['legacy', { text: 'Checked by hand: {x}' }, 'Checked by hand: {x}'],
  ])('%s with %j reads %s, and the message reads back as that flag', (code, values, message) => {
    expect(renderIssue(issueFlag(code, values))).toBe(message);
    expect(flagOfMessage(message)).toEqual({ code, values });
  });

  it('has a row for every code', () => {
    expect(Object.keys(FLAG_KINDS)).toHaveLength(23);
  });

  it.each(['Total mismatch', 'Note: Invalid date format', 'Invalid date format.', 'Quality below 50%', ''])('keeps %j, matching no template whole, as its own text', (message) => {
    expect(flagOfMessage(message)).toEqual({ code: 'legacy', values: { text: message } });
    expect(renderIssue(flagOfMessage(message))).toBe(message);
  });
});
