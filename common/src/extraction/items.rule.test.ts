import { describe, expect, it } from 'vitest';
import { itemsFromFields, itemsFromText, itemWords } from './items.rule.js';

describe('itemsFromText (spec §5)', () => {
  it.each<[string, ReturnType<typeof itemsFromText>]>([
    ['KOPI O 2 x 1.50 3.00', [{ description: 'KOPI O', qty: 2, unitPrice: 1.5, amount: 3 }]],
    ['Sugar 1kg 3 @ RM2.90 RM8.70', [{ description: 'Sugar 1kg', qty: 3, unitPrice: 2.9, amount: 8.7 }]],
    ['2 NASI LEMAK 9.00', [{ description: 'NASI LEMAK', qty: 2, unitPrice: 4.5, amount: 9 }]],
    // Totals, payments and tax lines are not items.
    ['TOTAL 2 x 1.50 3.00', []],
    ['CASH 2 x 10.00 20.00', []],
    ['GST 6% 0.36', []],
    ['Thank you, come again', []],
  ])('%j → %j', (line, items) => {
    expect(itemsFromText([line])).toEqual(items);
  });
});

describe('itemsFromFields', () => {
  it('maps the service items and names an item without description Unknown Item', () => {
    const items = itemsFromFields({
      values: [
        { fields: { Description: { value: 'Coffee' }, Quantity: { value: '2' }, Price: { value: 3 }, TotalPrice: { value: 6 } } },
        { fields: { Amount: { value: 4.5 }, Quantity: { value: 'two' } } },
      ],
    });
    expect(items).toEqual([
      { description: 'Coffee', qty: 2, unitPrice: 3, amount: 6 },
      { description: 'Unknown Item', qty: null, unitPrice: null, amount: 4.5 },
    ]);
    expect(itemWords(items)).toBe('Coffee Unknown Item');
  });
});
