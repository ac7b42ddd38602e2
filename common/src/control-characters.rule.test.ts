import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacter, safeText, withoutControlCharacters } from './control-characters.rule.js';
import { exportRequestSchema } from './export/export-request.schema.js';
import { merchantRulePatchSchema } from './merchant-rules.rule.js';
import { issueDecisionSchema, receiptListQuerySchema, receiptPatchSchema } from './receipt-library.schema.js';
import { spendingQuerySchema } from './spending.schema.js';

describe('control characters', () => {
  it.each(['a\u0000b', '\u0000', 'tab\there', 'line\nbreak', 'cr\r', '\u0007bell', 'del\u007f', 'c1\u0085', 'c1\u009f'])('%j has one', (text) => {
    expect(hasControlCharacter(text)).toBe(true);
    expect(safeText().safeParse(text).error?.issues[0]?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
  });

  it.each(['', 'Corner Pantry', 'Café Müller', '日本語のレシート', '🧾 emoji', 'non\u00a0breaking', '\u2028separator'])('%j has none', (text) => {
    expect(hasControlCharacter(text)).toBe(false);
    expect(safeText().parse(text)).toBe(text);
  });

  it.each([
    ['TOTAL\u0000 10.40', 'TOTAL 10.40'],
    ['\u0000\u0001\u001f\u007f\u0085', ''],
    ['keeps\ttabs\nand lines', 'keeps\ttabs\nand lines'],
    ['drops\r\ncarriage returns', 'drops\ncarriage returns'],
    ['Café', 'Café'],
  ])('withoutControlCharacters(%j) → %j', (text, out) => {
    expect(withoutControlCharacters(text)).toBe(out);
  });
});

describe('every request schema that takes text refuses control characters', () => {
  const NUL = 'x\u0000y';
  it.each([
    ['PATCH receipt merchantName', receiptPatchSchema, { merchantName: NUL }],
    ['PATCH receipt receiptNumber', receiptPatchSchema, { receiptNumber: NUL }],
    ['PATCH receipt item', receiptPatchSchema, { items: [{ description: NUL, amount: 1 }] }],
    ['PATCH receipt time, with a line break', receiptPatchSchema, { time: '10:20\n' }],
    ['PATCH rule', merchantRulePatchSchema, { value: NUL }],
    ['issue decision', issueDecisionSchema, { issue: NUL }],
    ['receipt list q', receiptListQuerySchema, { q: NUL }],
    ['spending q', spendingQuerySchema, { q: NUL }],
    ['export q', exportRequestSchema, { q: NUL }],
    ['export name', exportRequestSchema, { name: NUL }],
    ['export sheet name', exportRequestSchema, { receiptsSheet: NUL }],
  ] as const)('%s', (_, schema, input) => {
    const result = schema.safeParse(input);
    expect(result.error?.issues[0]?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
  });
});
