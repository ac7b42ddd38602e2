import { describe, expect, it } from 'vitest';
import { categorize } from './category.rule.js';

describe('categorize (spec §5)', () => {
  it.each<[string | undefined, string, string]>([
    ['PETRONAS DAGANGAN BHD', '', 'gas'],
    ['GUARDIAN (M) SDN BHD', '', 'pharmacy'],
    ['RESTORAN KAYU MANIS', '', 'restaurant'],
    ['88 MINI MART S/B', '', 'grocery'],
    ['SRI BINTANG HARDWARE TRADING', '', 'retail'],
    // The merchant decides before the items do.
    ['SRI BINTANG HARDWARE TRADING', 'chicken rice', 'retail'],
    // Item words when the merchant says nothing.
    ['UNIQUE ENTERPRISE', 'NASI LEMAK AYAM', 'restaurant'],
    [undefined, 'PANADOL 500MG TABLET', 'pharmacy'],
    ['XYZ SDN BHD', 'UNLEADED RON95', 'gas'],
    ['XYZ SDN BHD', 'WIDGET', 'other'],
    [undefined, '', 'other'],
  ])('%s with items %j → %s', (merchant, items, category) => {
    expect(categorize(merchant, items)).toBe(category);
  });
});
