import { describe, expect, it } from 'vitest';
import { convertAmount, ExchangeRatesFileError, parseEcbRates, ratesCurrencies } from './exchange-rates.rules.js';

// The layout of the ECB's eurofxref-hist.csv (its trailing comma too), with made-up rates.
const FILE = ['Date,USD,JPY,GBP,MYR,', '2026-03-06,1.2000,150.00,0.8000,5.0000,', '2026-03-05,1.1000,N/A,0.8500,5.1000,', '2026-03-02,1.0000,140.00,0.9000,N/A,', ''].join('\n');
const rates = parseEcbRates(FILE);

describe('parseEcbRates', () => {
  it('reads the days and the currencies, the euro among them', () => {
    expect(rates.days).toEqual(['2026-03-02', '2026-03-05', '2026-03-06']);
    expect(ratesCurrencies(rates)).toEqual(['EUR', 'GBP', 'JPY', 'MYR', 'USD']);
  });

  it.each([
    ['USD,JPY\n2026-03-06,1.2,150', 'The exchange rates file does not start with a Date column (the ECB CSV layout).'],
    ['Date,x,y\n2026-03-06,1,2', 'The exchange rates file names no currency columns.'],
    ['Date,USD\n06/03/2026,1.2', 'Line 2 of the exchange rates file has no YYYY-MM-DD date.'],
    ['Date,USD\n', 'The exchange rates file holds no rates.'],
  ])('refuses %j', (csv, message) => {
    expect(() => parseEcbRates(csv)).toThrow(new ExchangeRatesFileError(message));
  });
});

describe('convertAmount', () => {
  it.each([
    // 10 USD on a day of 1.2 USD and 0.8 GBP per euro: 10 / 1.2 × 0.8.
    [10, 'USD', 'GBP', '2026-03-06', { amount: 6.67, rate: 0.666667, rateDay: '2026-03-06' }],
    [10, 'EUR', 'USD', '2026-03-06', { amount: 12, rate: 1.2, rateDay: '2026-03-06' }],
    [1200, 'JPY', 'EUR', '2026-03-02', { amount: 8.57, rate: 0.007143, rateDay: '2026-03-02' }],
    // Into yen: no decimals.
    [10, 'EUR', 'JPY', '2026-03-06', { amount: 1500, rate: 150, rateDay: '2026-03-06' }],
    // A Sunday takes the Friday before, a Wednesday with no fixing the Monday before.
    [10, 'USD', 'EUR', '2026-03-08', { amount: 8.33, rate: 0.833333, rateDay: '2026-03-06' }],
    [10, 'USD', 'EUR', '2026-03-04', { amount: 10, rate: 1, rateDay: '2026-03-02' }],
    // No yen fixed that day (N/A): the last day both were.
    [1000, 'JPY', 'EUR', '2026-03-05', { amount: 7.14, rate: 0.007143, rateDay: '2026-03-02' }],
    [10, 'USD', 'JPY', '2026-03-05', { amount: 1400, rate: 140, rateDay: '2026-03-02' }],
  ])('%d %s → %s on %s', (amount, from, to, day, expected) => {
    expect(convertAmount(rates, amount, from, to, day)).toEqual(expected);
  });

  it.each([
    ['no day', 10, 'USD', 'EUR', undefined],
    ['a currency the file lacks', 10, 'SGD', 'EUR', '2026-03-06'],
    ['a home currency the file lacks', 10, 'USD', 'SGD', '2026-03-06'],
    ['a day before the file', 10, 'USD', 'EUR', '2025-01-01'],
    ['a day more than a week after it', 10, 'USD', 'EUR', '2026-03-20'],
    ['a currency with no rate fixed within a week (N/A)', 10, 'MYR', 'EUR', '2026-03-02'],
    ['a day that is no date', 10, 'USD', 'EUR', '2026-02-30x'],
  ])('converts nothing for %s', (_, amount, from, to, day) => {
    expect(convertAmount(rates, amount, from, to, day)).toBeNull();
  });
});
