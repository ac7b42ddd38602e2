import { describe, expect, it } from 'vitest';
import type { ReceiptRecord } from './receipt.schema.js';
import { applyPatch, receiptChanges } from './receipt-edit.rule.js';
import { receiptPatchSchema } from './receipt-library.schema.js';
import { WORKBOOK_ERRORS } from './export/workbook.rules.js';

const record: ReceiptRecord = {
  merchantName: 'SRI BINTANG HARDWARE',
  date: '2017-09-21',
  subtotal: 9.81,
  tax: 0.59,
  total: 10.4,
  category: 'retail',
  quality: 0.9,
  items: [{ description: 'NAIL', qty: 1, unitPrice: 9.81, amount: 9.81 }],
  rawText: 'SRI BINTANG',
};

describe('receipt corrections', () => {
  it('takes tags and a category of one’s own, records the tags as a change, and an empty list as none', () => {
    const tagged = applyPatch(record, receiptPatchSchema.parse({ tags: ['client A', 'Client a', 'travel'], category: 'Office supplies' }));
    expect(tagged).toMatchObject({ tags: ['client A', 'travel'], category: 'Office supplies' });
    expect(receiptChanges(record, tagged)).toEqual({ category: { from: 'retail', to: 'Office supplies' }, tags: { from: [], to: ['client A', 'travel'] } });
    const untagged = applyPatch(tagged, receiptPatchSchema.parse({ tags: [] }));
    expect(untagged.tags).toBeUndefined();
    expect(receiptChanges(record, applyPatch(record, receiptPatchSchema.parse({ tags: [] })))).toEqual({});
  });

  it('applies a patch, clearing fields given as null, and lists what changed', () => {
    const patch = receiptPatchSchema.parse({ total: 12, tax: null, currency: 'myr', items: [{ description: 'NAILS', qty: 2, unitPrice: 6, amount: 12 }] });
    const after = applyPatch(record, patch);
    expect(after).toMatchObject({ total: 12, tax: undefined, currency: 'MYR', quality: 0.9, merchantName: 'SRI BINTANG HARDWARE' });
    expect(receiptChanges(record, after)).toEqual({
      currency: { from: 'USD', to: 'MYR' },
      tax: { from: 0.59, to: null },
      total: { from: 10.4, to: 12 },
      items: { from: record.items, to: patch.items },
    });
  });

  it('keeps USD implicit and records nothing for an unchanged value', () => {
    const after = applyPatch({ ...record, currency: 'EUR' }, { currency: 'USD', total: 10.4 });
    expect(after.currency).toBeUndefined();
    expect(receiptChanges(record, after)).toEqual({});
  });

  it.each([
    [{}, 'Nothing to change'],
    [{ total: -1 }, 'Amounts cannot be negative'],
    [{ total: '12' }, 'Amounts are numbers'],
    [{ date: '21/09/2017' }, 'Dates are written YYYY-MM-DD'],
    [{ merchantName: 'x'.repeat(32768) }, WORKBOOK_ERRORS.textTooLong],
    [{ currency: 'XX' }, 'currency must be a three-letter ISO 4217 code'],
    [{ quality: 1 }, 'Unrecognized key: "quality"'],
  ])('refuses %j: %s', (body, message) => {
    const result = receiptPatchSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(message);
  });

  it('takes where fields were read beside the values, never into the record', () => {
    const patch = receiptPatchSchema.parse({ receiptNumber: 'R-1', tin: '123456789', fieldLines: { total: 4, items: [2, null] } });
    const after = applyPatch(record, patch);
    expect(after).not.toHaveProperty('fieldLines');
    expect(receiptChanges(record, after)).toEqual({ receiptNumber: { from: null, to: 'R-1' }, tin: { from: null, to: '123456789' } });
  });

  it.each([
    [{ fieldLines: { total: -1 } }],
    [{ fieldLines: { quality: 1 } }],
    [{ fieldLines: { items: [0.5] } }],
  ])('refuses where-read %j', (body) => {
    expect(receiptPatchSchema.safeParse(body).success).toBe(false);
  });
});
