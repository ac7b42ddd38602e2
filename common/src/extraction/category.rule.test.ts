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

describe('categorize: a known chain says what it sells', () => {
  it.each<[string, string | undefined, string, string]>([
    // Nothing in the name or items says groceries: the chain does.
    ['REWE Markt GmbH', 'REWE', 'VOLLMILCH 1,19', 'grocery'],
    ['Moto', 'Moto', 'COFFEE LATTE', 'gas'],
    ['Rossmann', 'Rossmann', 'DUSCHGEL', 'pharmacy'],
    ['Greggs', 'Greggs', 'SAUSAGE ROLL', 'restaurant'],
    ['HORNBACH', 'Hornbach', 'SCHRAUBEN', 'retail'],
    // Without a chain, the spec's rule as before.
    ['REWE Markt GmbH', undefined, 'VOLLMILCH 1,19', 'other'],
  ])('%s (chain %s) with items %j → %s', (merchant, chain, items, category) => {
    expect(categorize(merchant, items, chain)).toBe(category);
  });

  it('knows what every known chain sells, once', async () => {
    const { CHAIN_CATEGORIES, KNOWN_CHAINS } = await import('./known-chains.table.js');
    const listed = Object.values(CHAIN_CATEGORIES).flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...new Set(KNOWN_CHAINS.map((c) => c.name))].filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !KNOWN_CHAINS.some((c) => c.name === name))).toEqual([]);
  });
});
