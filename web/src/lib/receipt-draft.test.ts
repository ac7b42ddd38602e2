import { issueFlag, renderIssue, shownIssues, type ReceiptView } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { checkDraft, draftOf, emptyItem, fieldsReadFrom, linesOf, moveItem, patchOf, valueFromLine } from './receipt-draft.js';

const base: ReceiptView = {
  id: '00000000-0000-4000-8000-000000000001',
  merchantName: 'Corner Hardware',
  date: '2026-01-05',
  subtotal: 10,
  tax: 0.4,
  total: 10.4,
  category: 'retail',
  quality: 0.9,
  items: [
    { description: 'NAILS', qty: 2, unitPrice: 2.5, amount: 5 },
    { description: 'HINGES', qty: 1, unitPrice: 5, amount: 5 },
  ],
  rawText: '',
  issues: [],
  flags: [],
  valid: true,
};
const fieldLines = { merchantName: 0, total: 4, items: [2, 3] };
const NOW = new Date('2026-02-01T00:00:00Z');

describe('the correction draft', () => {
  it('starts from the receipt and where it was read, and saves every field with its lines', () => {
    const draft = draftOf(base, fieldLines);
    expect(draft.values).toMatchObject({ merchantName: 'Corner Hardware', total: '10.40', receiptNumber: '', currency: 'USD' });
    expect(draft.items[0]).toMatchObject({ qty: '2', unitPrice: '2.50', amount: '5.00' });
    expect(draft.items.map((i) => i.line)).toEqual([2, 3]);
    const edited = { ...draft, values: { ...draft.values, receiptNumber: ' R-77 ', tin: '123456789' }, items: moveItem(draft.items, 1, -1) };
    const check = checkDraft(edited, base, NOW);
    expect(check.errors).toEqual({});
    expect(patchOf(edited, check.record)).toMatchObject({
      receiptNumber: 'R-77',
      tin: '123456789',
      time: null,
      items: [expect.objectContaining({ description: 'HINGES' }), expect.objectContaining({ description: 'NAILS' })],
      fieldLines: { merchantName: 0, total: 4, items: [3, 2] },
    });
  });

  it('keeps the extraction’s doubts about the fields not changed, as the server will', () => {
    const doubted = { ...base, ...shownIssues([issueFlag('dateEitherWay'), issueFlag('currencyAssumed')]), valid: false };
    const draft = draftOf(doubted, fieldLines);
    expect(checkDraft(draft, doubted, NOW).issues.map(renderIssue)).toEqual(doubted.issues);
    expect(checkDraft({ ...draft, values: { ...draft.values, date: '2026-01-06' } }, doubted, NOW).issues.map(renderIssue)).toEqual(['Currency not printed; assumed from your choice']);
    expect(checkDraft({ ...draft, values: { ...draft.values, currency: 'EUR' } }, doubted, NOW).issues.map(renderIssue)).toEqual(['Day and month could be either way']);
  });

  it('checks the draft again as it is typed: the issues of the values as they stand, and what cannot be read', () => {
    const draft = draftOf(base, fieldLines);
    const mismatch = checkDraft({ ...draft, values: { ...draft.values, total: '12' } }, base, NOW);
    expect(mismatch.issues.map(renderIssue)).toEqual(['Total mismatch: 12.00 vs calculated 10.40']);
    // An item typed wrong: the items no longer make the subtotal, which the draft says as it is typed.
    const items = draft.items.map((item, i) => (i === 0 ? { ...item, amount: '5.50' } : item));
    expect(checkDraft({ ...draft, items }, base, NOW).issues.map(renderIssue)).toEqual(['Items add up to 10.50, not 10.00']);
    const typos = checkDraft(
      { ...draft, values: { ...draft.values, tax: 'abc', currency: 'EU' }, items: [...draft.items, { ...emptyItem(), amount: '-1.50', unitPrice: '-2' }] },
      base,
      NOW,
    );
    expect(typos.errors).toEqual({
      tax: 'Tax must be a number.',
      currency: 'The currency is a three-letter code, such as USD or EUR.',
      'items.2.unitPrice': 'The price cannot be negative.',
    });
    // A coupon is a negative item: no error for its amount.
    expect(typos.record.items[2]!.amount).toBe(-1.5);
  });

  it.each([
    ['client A, travel , Client a', ['client A', 'travel'], undefined],
    [' , ', [], undefined],
    ['x'.repeat(31), [], 'A tag is at most 30 characters.'],
    [Array.from({ length: 11 }, (_, i) => `t${i}`).join(','), [], 'At most 10 tags on a receipt.'],
  ])('reads the tags typed as %j', (typed, tags, error) => {
    const draft = { ...draftOf({ ...base, tags: ['old'] }, fieldLines), tags: typed };
    expect(draftOf({ ...base, tags: ['old', 'new'] }, fieldLines).tags).toBe('old, new');
    const { record, errors } = checkDraft(draft, base, NOW);
    expect(errors.tags).toBe(error);
    if (!error) expect(patchOf(draft, record).tags).toEqual(tags);
  });

  it('moves an item only within the list', () => {
    const items = draftOf(base, fieldLines).items;
    expect(moveItem(items, 0, -1).map((i) => i.description)).toEqual(['NAILS', 'HINGES']);
    expect(moveItem(items, 0, 1).map((i) => i.description)).toEqual(['HINGES', 'NAILS']);
  });

  it('knows which lines a field came from, and which fields a line gave', () => {
    expect(linesOf(fieldLines, { field: 'total' })).toEqual([4]);
    expect(linesOf(fieldLines, { field: 'date' })).toEqual([]);
    expect(linesOf(fieldLines, { item: 1, part: 'amount' })).toEqual([3]);
    expect(fieldsReadFrom(fieldLines, 3)).toEqual(['item 2']);
    expect(fieldsReadFrom(fieldLines, 4)).toEqual(['total']);
  });
});

describe('a line picked on the picture fills the field', () => {
  it.each<[Parameters<typeof valueFromLine>[0], string, string, string | null]>([
    [{ field: 'total' }, 'TOTAL 10.40', 'USD', '10.4'],
    [{ field: 'tax' }, 'GST 6% 0.59', 'MYR', '0.59'],
    [{ field: 'total' }, 'THANK YOU', 'USD', null],
    [{ field: 'total' }, '合計 ¥1,234', 'JPY', '1234'],
    [{ field: 'date' }, 'DATE 21/09/2024 10:20', 'MYR', '2024-09-21'],
    [{ field: 'date' }, 'DATE 09/21/2024', 'USD', '2024-09-21'],
    [{ field: 'time' }, 'DATE 21/09/2024 10:20', 'MYR', '10:20'],
    [{ field: 'merchantName' }, '  CORNER HARDWARE TRADING ', 'USD', 'CORNER HARDWARE TRADING'],
    [{ item: 0, part: 'description' }, 'HINGES 2 x 2.50 5.00', 'USD', 'HINGES 2 x'],
    [{ item: 0, part: 'amount' }, 'HINGES 2 x 2.50 5.00', 'USD', '5'],
    [{ item: 0, part: 'qty' }, 'HINGES 2 x 2.50 5.00', 'USD', '2'],
  ])('%j from "%s" (%s) → %s', (target, line, currency, value) => {
    expect(valueFromLine(target, line, currency)).toBe(value);
  });
});
