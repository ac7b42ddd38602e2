import { describe, expect, it } from 'vitest';
import { isGarbledSumsLabel, itemsFromFields, itemsFromText, itemsFromTextWithSources, itemWords, MAX_ITEMS } from './items.rule.js';

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

  it('keeps a coupon or deposit the service gives as a negative amount', () => {
    const items = itemsFromFields({ values: [{ fields: { Description: { value: 'Pfand' }, TotalPrice: { value: -0.25 } } }] });
    expect(items).toEqual([{ description: 'Pfand', qty: null, unitPrice: null, amount: -0.25 }]);
  });
});

describe('item layouts', () => {
  const items = (text: string) => itemsFromText(text.trim().split('\n'));

  it.each<[string, string, Array<{ description: string; amount: number; qty?: number | null; unitPrice?: number | null }>]>([
    ['a restaurant till’s quantity at its unit price in brackets', 'Draft Lager (2 @4.10) 8.20\nSUNDAY BRUNCH (2@$21.95) $43.90\nSubtotal 52.10', [
      { description: 'Draft Lager', qty: 2, unitPrice: 4.1, amount: 8.2 },
      { description: 'SUNDAY BRUNCH', qty: 2, unitPrice: 21.95, amount: 43.9 },
    ]],
    ['description, amount, tax code (de)', 'BIRNE 0,99 B\nFELDSALAT BIO 1,49 B\nSUMME EUR 2,48', [
      { description: 'BIRNE', amount: 0.99 },
      { description: 'FELDSALAT BIO', amount: 1.49 },
    ]],
    ['a weight line under its item', 'BIRNEN WILLIAMS 1,74 B\n0,654 kg x 2,66 EUR/kg\nSUMME 1,74', [
      { description: 'BIRNEN WILLIAMS', qty: 0.654, unitPrice: 2.66, amount: 1.74 },
    ]],
    ['numbers first, the description under them', 'Qty Description Total TAX\n1 D 12.00 SR\nFish Curry\n1 D 3.50 SR\nPlain Rice\nTotal (Excluding GST): 15.50', [
      { description: 'Fish Curry', qty: 1, amount: 12 },
      { description: 'Plain Rice', qty: 1, amount: 3.5 },
    ]],
    ['the amount on the next line with a ZRL tax code', 'Kopi (B)\n2 x 1.60 3.20 ZRL\nBungkus\n3 x 0.30 0.90 ZRL\nTotal QTY: 5', [
      { description: 'Kopi (B)', qty: 2, unitPrice: 1.6, amount: 3.2 },
      { description: 'Bungkus', qty: 3, unitPrice: 0.3, amount: 0.9 },
    ]],
    ['a tax code and stock number before the description', 'SR 200300000411- Fried Egg 1.20\no SR 200300000027- Mixed Greens 3.80\nTotal 5.00', [
      { description: 'Fried Egg', amount: 1.2 },
      { description: 'Mixed Greens', amount: 3.8 },
    ]],
    ['a count line under its item', 'H-MILCH 2,76 B\n4 Stk x 0,69\nSUMME 2,76', [{ description: 'H-MILCH', qty: 4, unitPrice: 0.69, amount: 2.76 }]],
    ['qty description amount (fr)', '1 STEAK FRITES 22.50 C\n2 EAU GAZEUSE 9.80 C\nTOTAL 32.30', [
      { description: 'STEAK FRITES', qty: 1, amount: 22.5 },
      { description: 'EAU GAZEUSE', qty: 2, unitPrice: 4.9, amount: 9.8 },
    ]],
    ['description qty unit amount (es)', 'BARR. CEREAL. MIEL 2 1,65 3,30\nTOTAL 3,30', [{ description: 'BARR. CEREAL. MIEL', qty: 2, unitPrice: 1.65, amount: 3.3 }]],
    ['deposit returns and coupons are negative items', 'COLA 1,49 A\nPFAND 0,25 A\nLEERGUT MEHRWEG -0,15 A\nMitarbeiterrabatt 5% -0,07 A\nSUMME 1,52', [
      { description: 'COLA', amount: 1.49 },
      { description: 'PFAND', amount: 0.25 },
      { description: 'LEERGUT MEHRWEG', amount: -0.15 },
      { description: 'Mitarbeiterrabatt 5%', amount: -0.07 },
    ]],
    ['instant savings with a trailing minus (us)', 'GV MILK 3.48 N\nINSTANT SAVINGS 1.00-\nSUBTOTAL 2.48', [
      { description: 'GV MILK', amount: 3.48 },
      { description: 'INSTANT SAVINGS', amount: -1 },
    ]],
    ['the amount on the lines after the description', 'LEMON TEA\n1 X\n1.90\n1.90\nTAKE AWAY\n3 X\n0.20\n0.60\nTOTAL 2.50', [
      { description: 'LEMON TEA', qty: 1, unitPrice: 1.9, amount: 1.9 },
      { description: 'TAKE AWAY', qty: 3, unitPrice: 0.2, amount: 0.6 },
    ]],
    ['stock codes between description and amount', 'SOFT BROOM W/3FT\n*S\nWB12 - 36\n9556123400117\n15.00\n2 X 7.50\nTOTAL 15.00', [
      { description: 'SOFT BROOM W/3FT', qty: 2, unitPrice: 7.5, amount: 15 },
    ]],
    ['the unit price beside the description, quantity and amount under it', 'LED TUBE T8 @14.00\n00007316\n5\nSR\n70.00\n14.00\nTOTAL 70.00', [
      { description: 'LED TUBE T8', qty: 5, unitPrice: 14, amount: 70 },
    ]],
    ['a leading number is a quantity when it divides the amount, else a stock code', '6 HEX BOLT M8\n4.80 SR\n261 COOKING OIL 5KG\nRM23.80 Z\nTOTAL 28.60', [
      { description: 'HEX BOLT M8', qty: 6, amount: 4.8 },
      { description: 'COOKING OIL 5KG', qty: null, amount: 23.8 },
    ]],
    ['a size is not a price', 'SODA LIME 1.25L PET\nRM2.80 S\nTOTAL 2.80', [{ description: 'SODA LIME 1.25L PET', amount: 2.8 }]],
    ['decimal points lost in OCR, put back where quantity × unit price agrees', '0.5 COPPER PIPE 15MM 800 400 SR\n3 CABLE TIE 250 750SR\nTotal 11.50', [
      { description: 'COPPER PIPE 15MM', qty: 0.5, unitPrice: 8, amount: 4 },
      { description: 'CABLE TIE', qty: 3, unitPrice: 2.5, amount: 7.5 },
    ]],
    ['a unit price split at its point, the description under the numbers', 'Item Qty S/Price Amount Tax\n2231 3 12 40 3720 SR\nGARDEN HOSE 20M\nTotal 37.20', [
      { description: 'GARDEN HOSE 20M', qty: 3, unitPrice: 12.4, amount: 37.2 },
    ]],
    ['an article code with the name printed under it', 'ITEM QTY UP AMOUNT\nKT4410 2 3.00 6.00\nKITCHEN TOWEL 2PLY\nSUB-TOTAL 6.00', [
      { description: 'KITCHEN TOWEL 2PLY', qty: 2, amount: 6 },
    ]],
    ['a dimension in the description is no price', 'Envelope C5 6.4X9.25 3.20 T\nTotal 3.20', [{ description: 'Envelope C5 6.4X9.25', amount: 3.2 }]],
    ['a pack-size line and an OCR-read "1X" between an item and its numbers', 'DISH RACK 2T *S\n(KQ7 - 12/48\n8123456 1% 7.90 7.90\nTotal 7.90', [
      { description: 'DISH RACK 2T *S', amount: 7.9 },
    ]],
    ['a tax code S read as 5', 'TEA BAGS 100S RM8.90 5\nTotal 8.90', [{ description: 'TEA BAGS 100S', amount: 8.9 }]],
    ['OCR noise after a photographed amount', 'OAT DRINK BARISTA £1.89 eae\nTOTAL 1.89', [{ description: 'OAT DRINK BARISTA', amount: 1.89 }]],
  ])('%s', (_layout, text, expected) => {
    expect(items(text)).toMatchObject(expected);
  });

  it('reads no items from the header, the sums or the tax table', () => {
    expect(items('SHOP GMBH\nMo. - Fr. 07.30 Uhr - 21.00 Uhr\nTel. 0221 5550123\n12/03/2026 13:05\nSUMME 5,00\nMwSt 19% 0,80\nBAR 10,00')).toEqual([]);
  });

  it('reads yen amounts', () => {
    expect(itemsFromText(['ﾊﾟﾝ 198', 'おにぎり 2点 x 120 240', '小計 438'], true)).toMatchObject([
      { description: 'ﾊﾟﾝ', amount: 198 },
      { amount: 240 },
    ]);
  });

  it(`keeps at most ${MAX_ITEMS} items, each with the line it was read from`, () => {
    const lines = Array.from({ length: 30 }, (_, i) => `ITEM ${String.fromCharCode(65 + (i % 26))}${i} 1.00`);
    const found = itemsFromTextWithSources([...lines, 'TOTAL 30.00']);
    expect(found).toHaveLength(MAX_ITEMS);
    expect(found[3]!.line).toBe(3);
  });
});

describe('a sums label OCR garbled is no item', () => {
  it.each<[string, boolean]>([
    ['Suototal', true],
    ['ROUMDING', true],
    ['TAXT AMT', true],
    ['CashAmount', true],
    ['Taxab le', true],
    ['ASUBTOTAL', true],
    ['Zwischensumne', true],
    // Items that only look a little like them.
    ['CASHEW NUTS', false],
    ['TOTE BAG', false],
    ['Amaretto', false],
    ['Tea', false],
  ])('%s → %s', (description, garbled) => {
    expect(isGarbledSumsLabel(description)).toBe(garbled);
  });

  it('ends the items where the sums begin', () => {
    expect(itemsFromText(['Burger 9.50', 'Fries 3.00', 'Suototal 12.50', 'Tax 1.00', 'Amount 13.50']).map((i) => i.description)).toEqual(['Burger', 'Fries']);
  });
});
