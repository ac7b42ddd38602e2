import { describe, expect, it } from 'vitest';
import { findChain } from './chain.rule.js';
import { findMerchant } from './merchant.rule.js';

const found = (lines: string[]) => {
  const m = findChain(lines);
  return m && { name: m.chain.name, line: m.line, where: m.where };
};

describe('known chains', () => {
  it.each([
    // A logo read in pieces or with one letter wrong in a long name.
    [['Kaufl and Filia le', 'Hauptstr. 5'], { name: 'Kaufland', line: 0, where: 'header' }],
    [['WOOLWOTHS', 'MAIN STREET'], { name: 'Woolworths', line: 0, where: 'header' }],
    [['| Tesco Metro', 'Date: 03/04/2024'], { name: 'Tesco', line: 0, where: 'header' }],
    [['ar', 'イオン新宿店'], { name: 'AEON', line: 1, where: 'header' }],
    // By its web address anywhere, or named as printed when nothing better is found.
    [['Branch 42', 'TOTAL 5.20', 'Feedback: www.tesco.com/survey'], { name: 'Tesco', line: 2, where: 'domain' }],
    [['Branch 42', ...Array<string>(20).fill('ITEM 1.00'), 'Visit us at sainsburys.co.uk'], { name: "Sainsbury's", line: 21, where: 'domain' }],
    [['Your order of 2 March', 'Get $2.00 Target Circle credit'], { name: 'Target', line: 1, where: 'mention' }],
  ])('%j → %j', (lines, chain) => {
    expect(found(lines)).toEqual(chain);
  });

  it.each([
    // Short names must be read exactly; a name inside a longer word or after a dot is not the chain.
    [['Lidi', 'RUE DU PORT 12']],
    [['Cooperativa agricola', 'C/ Real 8']],
    // A long name misread only in its trade word, never in its own: another shop's name is not a misread chain.
    [['K&K Supermarket', '05/11/25']],
    [['SUPERMERCADOS ALBA S.COOP.', 'Calle Mayor 3']],
    // A priced line is an item, whatever it is called; a fuzzy match needs seven letters or more.
    [['ACME TOOLS', '20W SUPER T5 LAMP 12.00']],
    [['BRIGHT ELECTRICAL SUPPLIES', '20W SUPER T5 LAMP @12 00']],
  ])('%j names no chain', (lines) => {
    expect(findChain(lines)).toBeNull();
  });
});

describe('a chain named by its own brands', () => {
  it('names the chain when several item lines carry its brands, and only then', () => {
    const order = ['Mar 3, 2026 order', 'Great Value Rolled Oats, 42 oz Qty 1 $4.36', 'Equate Sunscreen SPF 50 Qty 1 $6.97', 'Total $11.33'];
    expect(findChain(order)).toMatchObject({ chain: { name: 'Walmart' }, where: 'brand', line: 1 });
    expect(findChain(order.filter((l) => !l.startsWith('Equate')))).toBeNull();
    expect(findMerchant(undefined, order)?.name).toBe('Walmart');
  });

  it('lets a name in the header win over brands', () => {
    expect(findChain(['SAFEWAY', 'Great Value Oats 4.36', 'Great Value Rice 2.10'])).toMatchObject({ chain: { name: 'Safeway' }, where: 'header' });
  });
});
