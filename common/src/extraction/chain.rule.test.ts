import { describe, expect, it } from 'vitest';
import { findChain } from './chain.rule.js';

const found = (lines: string[]) => {
  const m = findChain(lines);
  return m && { name: m.chain.name, line: m.line, where: m.where };
};

describe('known chains', () => {
  it.each([
    // A logo read in pieces or with one letter wrong in a long name.
    [['Westfa len T ankste l le', 'Detmolder Str. 112'], { name: 'Westfalen', line: 0, where: 'header' }],
    [["HALIDIRAM'S", 'CITY CENTRE,'], { name: "Haldiram's", line: 0, where: 'header' }],
    [['\\ Coles NSW Al', 'Date: 24/05/2023'], { name: 'Coles', line: 0, where: 'header' }],
    [['ar', 'イオンスタイル古川橋駅前'], { name: 'AEON STYLE', line: 1, where: 'header' }],
    // By its web address anywhere, or named as printed when nothing better is found.
    [['LON-Hoxton Street', 'TOTAL 8.11', 'Enter survey: lidl.co.uk/haveyoursay'], { name: 'Lidl', line: 2, where: 'header' }],
    [['LON-Hoxton Street', ...Array<string>(20).fill('ITEM 1.00'), 'Enter survey: lidl.co.uk/haveyoursay'], { name: 'Lidl', line: 21, where: 'domain' }],
    [['Oct 27, 2025 order', '$1.00 Walmart Cash added!'], { name: 'Walmart', line: 1, where: 'mention' }],
  ])('%j → %j', (lines, chain) => {
    expect(found(lines)).toEqual(chain);
  });

  it.each([
    // Short names must be read exactly; a name inside a longer word or after a dot is not the chain.
    [['LeDL', 'LE BOUSCAT 0963']],
    [['Juntos es cooperativa', 'C/ Mayor 4']],
    [['SUPERMERCADOS ALBA S.COOP.', 'Calle Mayor 3']],
    // A priced line is an item, whatever it is called; a fuzzy match needs seven letters or more.
    [['ACME TOOLS', '30W SUPER T8 LED TUBE 16.00']],
    [['AMTECH ELECTRICAL SUPPLIES', '30W SUPER T8 LED TUBE @16 00']],
  ])('%j names no chain', (lines) => {
    expect(findChain(lines)).toBeNull();
  });
});
