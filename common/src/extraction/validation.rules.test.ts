import { describe, expect, it } from 'vitest';
import type { ReceiptRecord } from '../receipt.schema.js';
import {
  DOUBT_CODES,
  doubtsAfterEdit,
  receiptIssues,
  dateIssue,
  isExportValid,
  ISSUE_TEXTS,
  itemsIssue,
  keptAcceptances,
  LOW_QUALITY_FLAG,
  missingKeyFields,
  openFlags,
  flagKind,
  NOTICE_CODES,
  reviewFlags,
  taxRateIssue,
  totalIssue,
  totalMismatch,
  validateReceipt,
} from './validation.rules.js';
import { FLAG_KINDS, flagView, issueFlag, renderIssue, type FlagCode, type IssueFlag } from './issue-codes.rules.js';

const NOW = new Date('2026-11-22T12:00:00Z');
/** A flag's message, or null: what the rules' flags read. */
const text = (flag: IssueFlag | null) => (flag === null ? null : renderIssue(flag));
const texts = (flags: readonly IssueFlag[]) => flags.map(renderIssue);
/** The flag of a code without values. */
const f = (code: FlagCode) => issueFlag(code);
const receipt = (fields: Partial<ReceiptRecord>): ReceiptRecord => ({ category: 'other', quality: 0.9, items: [], rawText: '', ...fields });

describe('receipt issues (spec §5)', () => {
  it.each<[Partial<ReceiptRecord>, string | null]>([
    [{}, 'Missing all key fields (merchant, total, and date)'],
    [{ merchantName: 'AEON' }, null],
    [{ total: 5 }, null],
    [{ date: '2026-01-01' }, null],
  ])('missing key fields: %j → %s', (fields, issue) => {
    expect(text(missingKeyFields(receipt(fields)))).toBe(issue);
  });

  it.each<[Partial<ReceiptRecord>, string | null]>([
    [{ total: 110, subtotal: 100, tax: 10 }, null],
    [{ total: 115, subtotal: 100, tax: 10, tip: 5 }, null],
    [{ total: 105, subtotal: 100, tax: 10, discount: 5 }, null],
    // Tolerance is 1 % of the total: 1.10 here.
    [{ total: 110, subtotal: 101.05, tax: 10 }, null],
    [{ total: 110, subtotal: 101.2, tax: 10 }, 'Total mismatch: 110.00 vs calculated 111.20'],
    // Below 1.00 the tolerance is 0.01.
    [{ total: 0.5, subtotal: 0.4, tax: 0.09 }, null],
    [{ total: 0.5, subtotal: 0.4, tax: 0.08 }, 'Total mismatch: 0.50 vs calculated 0.48'],
    // The spec's rule as it stands: a subtotal must be before tax (extraction nets out an inclusive one).
    [{ total: 438, subtotal: 438, tax: 32 }, 'Total mismatch: 438.00 vs calculated 470.00'],
    [{ total: 450, subtotal: 438, tax: 32 }, 'Total mismatch: 450.00 vs calculated 470.00'],
    // Checked only when total, subtotal and tax are all present.
    [{ total: 110, subtotal: 50 }, null],
    [{ subtotal: 50, tax: 5 }, null],
  ])('total mismatch: %j → %s', (fields, issue) => {
    expect(text(totalMismatch(receipt(fields)))).toBe(issue);
  });

  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['2026-11-22', null],
    ['2026-11-23', null],
    ['2026-11-25', 'Date out of reasonable range'],
    ['2024-11-23', null],
    ['2024-11-01', 'Date out of reasonable range'],
    ['2026-02-30', 'Invalid date format'],
    ['22/11/2026', 'Invalid date format'],
  ])('date %s → %s', (date, issue) => {
    expect(text(dateIssue(receipt({ date }), NOW))).toBe(issue);
  });

  it.each<[number | null, string | null]>([
    [null, null],
    [0, 'Zero or negative total amount'],
    [0.01, null],
    [10000, null],
    [10000.01, 'Unusually large total amount'],
  ])('total %s → %s', (total, issue) => {
    expect(text(totalIssue(receipt({ total })))).toBe(issue);
  });

  it.each<[Partial<ReceiptRecord>, string | null]>([
    [{ subtotal: 100, tax: 50 }, null],
    [{ subtotal: 100, tax: 51 }, 'Suspicious tax rate: 51%'],
    [{ total: 160, tax: 60 }, 'Suspicious tax rate: 60%'],
    [{ total: 106, tax: 6 }, null],
    [{ tax: 0, total: 10 }, null],
  ])('tax rate: %j → %s', (fields, issue) => {
    expect(text(taxRateIssue(receipt(fields)))).toBe(issue);
  });

  it('lists every issue in a fixed order and decides export validity', () => {
    const bad = receipt({ merchantName: 'X', total: 20000, subtotal: 10, tax: 9, date: '2030-01-01' });
    expect(texts(validateReceipt(bad, NOW))).toEqual([
      'Total mismatch: 20000.00 vs calculated 19.00',
      'Date out of reasonable range',
      'Unusually large total amount',
      'Suspicious tax rate: 90%',
    ]);
    const good = receipt({ merchantName: 'X', total: 10.6, subtotal: 10, tax: 0.6, date: '2026-11-01' });
    expect(validateReceipt(good, NOW)).toEqual([]);
    expect(isExportValid(good, [])).toBe(true);
    expect(isExportValid({ ...good, quality: 0.59 }, [])).toBe(false);
    expect(isExportValid({ ...good, quality: 0.6 }, [])).toBe(true);
    expect(isExportValid(good, [f('invalidDate')])).toBe(false);
  });
});

describe('issue codes and the fields they are shown beside', () => {
  it.each<[IssueFlag | null, string, string | null]>([
    [missingKeyFields(receipt({})), 'missingKeyFields', null],
    [totalMismatch(receipt({ total: 110, subtotal: 101.2, tax: 10 })), 'totalMismatch', 'total'],
    [dateIssue(receipt({ date: '2026-02-30' }), NOW), 'invalidDate', 'date'],
    [dateIssue(receipt({ date: '2030-01-01' }), NOW), 'dateOutOfRange', 'date'],
    [totalIssue(receipt({ total: 0 })), 'nonPositiveTotal', 'total'],
    [totalIssue(receipt({ total: 20000 })), 'largeTotal', 'total'],
    [taxRateIssue(receipt({ subtotal: 100, tax: 51 })), 'suspiciousTaxRate', 'tax'],
    [itemsIssue(receipt({ items: [{ description: 'x', amount: 1 }], total: 5 })), 'itemsDontAddUp', 'items'],
  ])('%j → %s beside %s', (flag, code, field) => {
    expect(flagView(flag!)).toEqual({ code, values: flag!.values, field, message: renderIssue(flag!) });
  });

  it('covers every code', () => {
    // The spec's seven issues, items that do not add up, and the extraction's doubts about key fields.
    expect(Object.keys(ISSUE_TEXTS)).toHaveLength(7 + 1 + DOUBT_CODES.size);
    for (const code of DOUBT_CODES) expect(ISSUE_TEXTS[code as keyof typeof ISSUE_TEXTS]).toBe(FLAG_KINDS[code].text);
  });

  it.each<[IssueFlag, string]>([
    [issueFlag('totalMismatch', { total: '12.00', calculated: '11.00' }), 'Total mismatch: {total} vs calculated {calculated}'],
    [issueFlag('totalMismatch', { total: '3.50', calculated: '3.40' }), 'Total mismatch: {total} vs calculated {calculated}'],
    [f('dateOutOfRange'), 'Date out of reasonable range'],
    [f('lowQuality'), 'Quality below 60%'],
    [issueFlag('legacy', { text: 'Missing total' }), 'Missing total'],
  ])('%j is a flag of the kind %s', (flag, kind) => {
    expect(flagKind(flag)).toBe(kind);
  });
});

describe('doubts beside the issues', () => {
  const [totalUnconfirmed, dateEitherWay, merchantNotFound, currencyAssumed] = (['totalUnconfirmed', 'dateEitherWay', 'merchantNotFound', 'currencyAssumed'] as const).map(f);
  const mismatch = issueFlag('totalMismatch', { total: '10.00', calculated: '9.50' });

  it('follows the spec’s issues with the doubts they do not already say', () => {
    expect(receiptIssues(receipt({ total: 10, subtotal: 9, tax: 0.5 }), [totalUnconfirmed!, dateEitherWay!], NOW)).toEqual([mismatch, dateEitherWay]);
    expect(receiptIssues(receipt({ merchantName: undefined, total: undefined, date: undefined }), [merchantNotFound!, currencyAssumed!], NOW)).toEqual([f('missingKeyFields'), currencyAssumed]);
    expect(receiptIssues(receipt({ merchantName: 'A', total: 5, date: '2026-11-01' }), [dateEitherWay!], NOW)).toEqual([dateEitherWay]);
  });

  it('keeps the doubts about fields a person did not change', () => {
    const issues = [mismatch, totalUnconfirmed!, dateEitherWay!, currencyAssumed!];
    expect(doubtsAfterEdit(issues, new Set())).toEqual([totalUnconfirmed, dateEitherWay, currencyAssumed]);
    expect(doubtsAfterEdit(issues, new Set(['date', 'subtotal']))).toEqual([totalUnconfirmed, currencyAssumed]);
    expect(doubtsAfterEdit(issues, new Set(['total', 'currency']))).toEqual([dateEitherWay]);
  });

  it('answers the doubt about the total once the subtotal and tax a person typed make it', () => {
    const typed = receipt({ total: 10.4, subtotal: 9.81, tax: 0.59 });
    expect(doubtsAfterEdit([totalUnconfirmed!, dateEitherWay!], new Set(['subtotal', 'tax']), typed)).toEqual([dateEitherWay]);
    expect(doubtsAfterEdit([totalUnconfirmed!], new Set(['subtotal']), { ...typed, tax: 1 })).toEqual([totalUnconfirmed]);
    // Untouched sums answer nothing: the extraction had them and still doubted.
    expect(doubtsAfterEdit([totalUnconfirmed!], new Set(['date']), typed)).toEqual([totalUnconfirmed]);
  });
});

describe('items that make none of the receipt\'s sums', () => {
  const items = (...amounts: Array<number | null>) => amounts.map((amount, i) => ({ description: `item ${i}`, amount }));
  it.each<[string, Partial<ReceiptRecord>, string | null]>([
    ['make the subtotal', { items: items(4.5, 4.5), subtotal: 9, tax: 0.54, total: 9.54 }, null],
    ['make the total (prices include the tax)', { items: items(0.89, -0.25), total: 0.64, tax: 0.1 }, null],
    ['make the total less its tax, no subtotal printed', { items: items(20, 20), tax: 3.2, total: 43.2 }, null],
    ['make the total less tax and tip', { items: items(30), tax: 2.4, tip: 6, total: 38.4 }, null],
    ['make the subtotal before a discount', { items: items(10, 5), discount: 1.5, total: 13.5 }, null],
    ['within a cent an item', { items: items(3.33, 3.33, 3.33), total: 10 }, null],
    ['a line missed', { items: items(4.5), subtotal: 9, tax: 0.54, total: 9.54 }, 'Items add up to 4.50, not 9.00'],
    ['a line taken twice, no subtotal', { items: items(12, 12, 8), total: 20 }, 'Items add up to 32.00, not 20.00'],
    ['an amount not read: nothing to add', { items: items(4.5, null), total: 20 }, null],
    ['no items', { total: 20 }, null],
    ['no total', { items: items(4.5) }, null],
  ])('%s', (_, fields, issue) => {
    expect(text(itemsIssue(receipt(fields)))).toBe(issue);
  });

  it('comes after the spec\'s issues and before the doubts; a correction that mends the items drops it', () => {
    const r = receipt({ merchantName: 'A', date: '2026-11-01', items: items(4.5), subtotal: 9, tax: 0.54, total: 9.54 });
    const issues = receiptIssues(r, [f('dateEitherWay')], NOW);
    expect(texts(issues)).toEqual(['Items add up to 4.50, not 9.00', ISSUE_TEXTS.dateEitherWay]);
    expect(flagView(issues[0]!)).toMatchObject({ code: 'itemsDontAddUp', field: 'items' });
    expect(receiptIssues({ ...r, items: items(4.5, 4.5) }, [], NOW)).toEqual([]);
  });

  it('is a notice: shown, but the receipt stays ready for export', () => {
    const r = receipt({ merchantName: 'A', date: '2026-11-01', items: items(4.5), subtotal: 9, tax: 0.54, total: 9.54 });
    const issues = receiptIssues(r, [], NOW);
    expect(texts(issues)).toEqual(['Items add up to 4.50, not 9.00']);
    expect(NOTICE_CODES.has(issues[0]!.code)).toBe(true);
    expect(NOTICE_CODES.has('dateEitherWay')).toBe(false);
    expect(reviewFlags(r, issues)).toEqual([]);
    expect(isExportValid(r, issues)).toBe(true);
    expect(isExportValid(r, [...issues, f('dateEitherWay')])).toBe(false);
  });
});

describe('flags a person accepts after looking', () => {
  const OLD = f('dateOutOfRange');
  const MISMATCH = issueFlag('totalMismatch', { total: '12.00', calculated: '11.00' });
  const by = (flag: IssueFlag) => ({ flag, userId: 'u1', at: '2026-11-22T12:00:00.000Z' });

  it.each<[number, IssueFlag[], IssueFlag[], IssueFlag[], boolean]>([
    // quality, issues, accepted → open flags, valid
    [0.9, [], [], [], true],
    [0.9, [OLD], [], [OLD], false],
    [0.9, [OLD], [OLD], [], true],
    [0.9, [OLD, MISMATCH], [OLD], [MISMATCH], false],
    [0.5, [], [], [LOW_QUALITY_FLAG], false],
    [0.5, [], [LOW_QUALITY_FLAG], [], true],
    [0.5, [OLD], [OLD], [LOW_QUALITY_FLAG], false],
    // An acceptance holds for the message accepted: a new mismatch asks again.
    [0.9, [issueFlag('totalMismatch', { total: '13.00', calculated: '11.00' })], [MISMATCH], [issueFlag('totalMismatch', { total: '13.00', calculated: '11.00' })], false],
  ])('quality %s, issues %j, accepted %j → open %j, valid %s', (quality, issues, accepted, open, valid) => {
    const r = receipt({ quality });
    expect(openFlags(r, issues, accepted.map(by))).toEqual(open);
    expect(isExportValid(r, issues, accepted.map(by))).toBe(valid);
  });

  it('lists low quality as a flag beside the issues, in the wording of the Validation Issues sheet', () => {
    expect(texts(reviewFlags(receipt({ quality: 0.59 }), [OLD]))).toEqual([renderIssue(OLD), 'Quality below 60%']);
    expect(reviewFlags(receipt({ quality: 0.6 }), [OLD])).toEqual([OLD]);
  });

  it('keeps the acceptances of flags the receipt still carries, each once', () => {
    const accepted = [by(OLD), by(MISMATCH), { ...by(OLD), userId: 'u2' }, by(LOW_QUALITY_FLAG)];
    expect(keptAcceptances(accepted, receipt({ quality: 0.9 }), [OLD])).toEqual([by(OLD)]);
    expect(keptAcceptances(accepted, receipt({ quality: 0.3 }), [])).toEqual([by(LOW_QUALITY_FLAG)]);
  });
});
