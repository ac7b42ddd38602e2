import { describe, expect, it } from 'vitest';
import { plausibleTaxRate } from './tax-rate.rule.js';

describe('plausibleTaxRate', () => {
  it.each<[string | undefined, number, number, boolean]>([
    ['JPY', 100, 1100, true],
    ['JPY', 219, 2967, true],
    // A 20 % "tax" in Japan is a misread line.
    ['JPY', 200, 1200, false],
    ['EUR', 1.9, 11.9, true],
    ['GBP', 2, 12, true],
    ['CHF', 3.88, 57.9, true],
    ['CHF', 10, 57.9, false],
    ['USD', 3.47, 43.18, true],
    ['USD', 8, 43.18, false],
    ['CAD', 3.14, 27.3, true],
    ['INR', 21.42, 450, true],
    [undefined, 4, 20, true],
    [undefined, 8, 20, false],
    ['EUR', 5, 5, false],
  ])('%s: %d of %d → %s', (currency, tax, total, plausible) => {
    expect(plausibleTaxRate(currency, tax, total)).toBe(plausible);
  });
});
