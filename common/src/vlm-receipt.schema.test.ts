import { describe, expect, it } from 'vitest';
import { vlmReceiptJsonSchema, vlmReceiptSchema } from './vlm-receipt.schema.js';

const answer = {
  rawText: 'CAFE ROMA\nVia Roma 1',
  merchantName: 'CAFE ROMA',
  date: '2026-03-14',
  time: '12:30',
  currency: 'EUR',
  subtotal: null,
  tax: 1.1,
  tip: null,
  discount: null,
  total: 12.1,
  paymentMethod: 'card',
  receiptNumber: null,
  tin: null,
  items: [{ description: 'Espresso', qty: 2, unitPrice: 1.5, amount: 3 }, { description: 'Coupon', qty: null, unitPrice: null, amount: -1 }],
};

describe('the vision model answer schema', () => {
  it('takes an answer the record could hold', () => {
    expect(vlmReceiptSchema.parse(answer)).toEqual(answer);
  });

  it.each([
    ['a missing key', { ...answer, tin: undefined }],
    ['a negative total', { ...answer, total: -12.1 }],
    ['a date in another format', { ...answer, date: '14/03/2026' }],
    ['a money amount as text', { ...answer, total: '12.10' }],
    ['an item without its amount key', { ...answer, items: [{ description: 'Espresso', qty: 1, unitPrice: 1.5 }] }],
  ])('refuses %s', (_, bad) => {
    expect(vlmReceiptSchema.safeParse(bad).success).toBe(false);
  });

  it('derives a strict JSON Schema: every key required, no others, nulls allowed, the record bounds kept', () => {
    const schema = vlmReceiptJsonSchema() as {
      $schema?: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { anyOf?: Array<{ type: string; minimum?: number; pattern?: string }>; items?: { required: string[] } }>;
    };
    expect(schema.$schema).toBeUndefined();
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required.sort()).toEqual(Object.keys(answer).sort());
    expect(schema.properties.total!.anyOf).toEqual([expect.objectContaining({ type: 'number', minimum: 0 }), { type: 'null' }]);
    expect(schema.properties.date!.anyOf![0]!.pattern).toBe('^\\d{4}-\\d{2}-\\d{2}$');
    expect(schema.properties.items!.items!.required.sort()).toEqual(['amount', 'description', 'qty', 'unitPrice']);
  });
});
