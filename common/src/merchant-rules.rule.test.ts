import { describe, expect, it } from 'vitest';
import { applyMerchantRules, findRule, learnedRules, merchantKey, ruleTags, type MerchantRule } from './merchant-rules.rule.js';
import type { ReceiptRecord } from './receipt.schema.js';

const rule = (kind: MerchantRule['kind'], match: string, value: string): MerchantRule => ({ kind, match, matchKey: merchantKey(match), value });
const receipt = (over: Partial<ReceiptRecord> = {}): ReceiptRecord => ({ merchantName: 'KEDAI RUNCIT AH SENG', category: 'retail', quality: 0.9, items: [], rawText: '', ...over });

describe('merchantKey', () => {
  it.each([
    ['MR. K.L.Y. (M) SDN BHD', 'MR.KLY (M)'],
    ['MR. K.L.Y. (M) SDN BHD', 'mr kly (m) sdn. bhd.'],
    ['WELLCARE PHARMACY 5DN BHD', 'Wellcare Pharmacy'],
    ['Café Müller GmbH', 'CAFE MULLER'],
    ['5HELL', 'SHELL'],
    ['KOPI HOUSE 88', 'KOPl HOUSE BB'],
    ['セブン-イレブン', 'セブンイレブン'],
  ])('%j keys as %j', (a, b) => {
    expect(merchantKey(a)).toBe(merchantKey(b));
  });

  it.each([
    ['SHELL', 'SHELF'],
    ['Pantry', 'Pantry Extra'],
    // A legal form alone is a name.
    ['Co', ''],
  ])('%j and %j are different merchants', (a, b) => {
    expect(merchantKey(a)).not.toBe(merchantKey(b));
  });

  it('keys blank text as nothing', () => {
    expect(merchantKey('  ')).toBe('');
  });
});

describe('findRule', () => {
  const rules = [rule('merchant', 'SUNRISE BAKERIES (KL) SDN BHD', 'Sunrise'), rule('merchant', 'SHELL', 'Shell'), rule('category', 'Sunrise', 'grocery')];
  it.each([
    ['SUNRISE BAKERIES (KL) SDN BHD', 'Sunrise'],
    ['SUNRISE BAKERIES (KL) SDN. BHD.', 'Sunrise'],
    // The letters OCR confuses key alike; other slips match up to one per 8 characters (2 in these 19).
    ['SUNRlSE 8AKERIES (KL) SDN BHD', 'Sunrise'],
    ['SUNRISE BAKFRIES (KL) SDN BHD', 'Sunrise'],
    ['SUNRISF BAKFRIES (KL) SDN BHD', 'Sunrise'],
    ['SUNRISF BAKFRIFS (KL) SDN BHD', undefined],
    ['SHELL', 'Shell'],
    // Short names match only exactly.
    ['SHELF', undefined],
    ['5HELL', 'Shell'],
    [undefined, undefined],
  ])('merchant rule for %j → %s', (merchant, value) => {
    expect(findRule(rules, 'merchant', merchant)?.value).toBe(value);
  });

  it('looks only at rules of the kind asked for', () => {
    expect(findRule(rules, 'category', 'SUNRISE')?.value).toBe('grocery');
    expect(findRule(rules, 'category', 'SHELL')).toBeUndefined();
  });
});

describe('applyMerchantRules', () => {
  it('renames the merchant, then files it under its category', () => {
    const rules = [rule('merchant', 'KEDAI RUNCIT AH SENG', 'Ah Seng Grocery'), rule('category', 'Ah Seng Grocery', 'grocery')];
    const { receipt: out, merchantRead, applied } = applyMerchantRules(receipt(), rules);
    expect(out).toMatchObject({ merchantName: 'Ah Seng Grocery', category: 'grocery' });
    expect(merchantRead).toBe('KEDAI RUNCIT AH SENG');
    expect(applied).toHaveLength(2);
  });

  it('gives a renamed merchant without a category rule the keyword category of its new name', () => {
    expect(applyMerchantRules(receipt({ category: 'other' }), [rule('merchant', 'KEDAI RUNCIT AH SENG', 'Ah Seng Pharmacy')]).receipt.category).toBe('pharmacy');
    expect(applyMerchantRules(receipt(), [rule('merchant', 'KEDAI RUNCIT AH SENG', 'Ah Seng')]).receipt.category).toBe('retail');
  });

  it('files a merchant under a category of the user’s own, and gives it the user’s tags', () => {
    const rules = [rule('category', 'KEDAI RUNCIT AH SENG', 'Office supplies'), rule('tags', 'KEDAI RUNCIT AH SENG', 'client A, travel')];
    const { receipt: out, applied } = applyMerchantRules(receipt(), rules);
    expect(out).toMatchObject({ category: 'Office supplies', tags: ['client A', 'travel'] });
    expect(applied.map((r) => r.kind)).toEqual(['category', 'tags']);
  });

  it('leaves a receipt no rule matches as extracted', () => {
    const original = receipt();
    expect(applyMerchantRules(original, [rule('category', 'Somewhere else', 'gas')])).toEqual({ receipt: original, merchantRead: original.merchantName, applied: [] });
    expect(applyMerchantRules(receipt({ merchantName: undefined }), [rule('merchant', 'x', 'y')]).applied).toEqual([]);
  });
});

describe('learnedRules', () => {
  it('learns the name from what was read, and the category for the corrected name', () => {
    expect(
      learnedRules({ merchantRead: 'SUNRlSE BAKERIES', merchantName: 'SUNRlSE BAKERIES' }, { merchantName: 'Sunrise', category: 'grocery' }, { merchantName: {}, category: {} }),
    ).toEqual([
      { kind: 'merchant', match: 'SUNRlSE BAKERIES', value: 'Sunrise' },
      { kind: 'category', match: 'Sunrise', value: 'grocery' },
    ]);
  });

  it('learns from what the extraction read even when a rule had renamed it', () => {
    expect(learnedRules({ merchantRead: 'SHELL 123', merchantName: 'Shel' }, { merchantName: 'Shell', category: 'gas' }, { merchantName: {} })).toEqual([
      { kind: 'merchant', match: 'SHELL 123', value: 'Shell' },
    ]);
  });

  it('learns the tags a person gave the merchant’s receipt, and nothing from tags taken off', () => {
    expect(learnedRules({ merchantName: 'Shell' }, { merchantName: 'Shell', category: 'gas', tags: ['car', 'client A'] }, { tags: {} })).toEqual([
      { kind: 'tags', match: 'Shell', value: 'car, client A' },
    ]);
    expect(learnedRules({ merchantName: 'Shell' }, { merchantName: 'Shell', category: 'gas', tags: [] }, { tags: {} })).toEqual([]);
  });

  it('learns nothing without a merchant to key it on', () => {
    expect(learnedRules({ merchantRead: null, merchantName: null }, { merchantName: 'Shell', category: 'gas' }, { merchantName: {} })).toEqual([]);
    expect(learnedRules({ merchantName: 'X' }, { merchantName: null, category: 'gas' }, { category: {} })).toEqual([]);
  });
});

describe('ruleTags', () => {
  it.each([
    ['car, client A', ['car', 'client A']],
    ['car,,Car , ', ['car']],
    ['', []],
  ])('%j → %j', (value, expected) => {
    expect(ruleTags(value)).toEqual(expected);
  });
});
