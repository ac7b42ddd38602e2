import { describe, expect, it } from 'vitest';
import { COUNTRY_CURRENCY, countryFromAcceptLanguage, currencyForCountry } from './currency-country.js';

describe('country to currency', () => {
  it('covers about 70 countries and the spec’s Works-worldwide list', () => {
    expect(Object.keys(COUNTRY_CURRENCY).length).toBeGreaterThanOrEqual(70);
    for (const [country, currency] of Object.entries({ PH: 'PHP', US: 'USD', CA: 'CAD', MX: 'MXN', GB: 'GBP', DE: 'EUR', FR: 'EUR', JP: 'JPY', AU: 'AUD', SG: 'SGD', BR: 'BRL', IN: 'INR', MY: 'MYR' })) {
      expect(currencyForCountry(country)).toBe(currency);
    }
  });

  it('maps the euro zone to EUR', () => {
    expect(['AT', 'BE', 'HR', 'ES', 'IT', 'NL', 'ie'].map(currencyForCountry)).toEqual(Array(7).fill('EUR'));
  });

  it('knows nothing of unknown countries', () => {
    expect(currencyForCountry('ZZ')).toBeNull();
    expect(currencyForCountry(null)).toBeNull();
  });
});

describe('countryFromAcceptLanguage', () => {
  it.each([
    ['en-GB,en;q=0.9', 'GB'],
    ['de', null],
    ['de;q=0.8, fr-CA;q=0.9', 'CA'],
    ['zh-Hant-TW,zh;q=0.9', 'TW'],
    ['en-XX, pt-BR;q=0.5', 'BR'],
    ['', null],
    [undefined, null],
  ])('%j → %s', (header, country) => {
    expect(countryFromAcceptLanguage(header)).toBe(country);
  });
});
