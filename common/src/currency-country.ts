import { z } from 'zod';

/** Currency by ISO 3166 country code: about 70 countries, the euro zone to EUR (spec §9). */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  // Euro zone
  AT: 'EUR', BE: 'EUR', HR: 'EUR', CY: 'EUR', EE: 'EUR', FI: 'EUR', FR: 'EUR', DE: 'EUR', GR: 'EUR', IE: 'EUR',
  IT: 'EUR', LV: 'EUR', LT: 'EUR', LU: 'EUR', MT: 'EUR', NL: 'EUR', PT: 'EUR', SK: 'EUR', SI: 'EUR', ES: 'EUR',
  // Americas
  US: 'USD', CA: 'CAD', MX: 'MXN', BR: 'BRL', AR: 'ARS', CL: 'CLP', CO: 'COP', PE: 'PEN', UY: 'UYU', EC: 'USD',
  PR: 'USD', PA: 'USD', CR: 'CRC', DO: 'DOP', GT: 'GTQ',
  // Europe outside the euro
  GB: 'GBP', CH: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK', PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', BG: 'BGN',
  IS: 'ISK', TR: 'TRY', UA: 'UAH', RS: 'RSD',
  // Asia and Oceania
  JP: 'JPY', CN: 'CNY', KR: 'KRW', IN: 'INR', SG: 'SGD', HK: 'HKD', TW: 'TWD', TH: 'THB', PH: 'PHP', MY: 'MYR',
  ID: 'IDR', VN: 'VND', PK: 'PKR', BD: 'BDT', LK: 'LKR', AU: 'AUD', NZ: 'NZD',
  // Middle East and Africa
  AE: 'AED', SA: 'SAR', QA: 'QAR', KW: 'KWD', IL: 'ILS', EG: 'EGP', ZA: 'ZAR', NG: 'NGN', KE: 'KES', MA: 'MAD',
};

/** GET /api/detect-currency: the currency guessed for the caller, and the country it was guessed by (null: none, so USD). */
export const detectedCurrencySchema = z.object({ currency: z.string(), country: z.string().nullable() });
export type DetectedCurrency = z.infer<typeof detectedCurrencySchema>;

export function currencyForCountry(country: string | null | undefined): string | null {
  return country ? (COUNTRY_CURRENCY[country.toUpperCase()] ?? null) : null;
}

/**
 * The country an Accept-Language header points at: the first language tag with a region
 * (`en-GB` → GB). A bare language says nothing about where someone pays, so it is skipped.
 */
export function countryFromAcceptLanguage(header: string | null | undefined): string | null {
  if (!header) return null;
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q) };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const region = /^[a-z]{2,3}(?:-[A-Za-z]{4})?-([A-Za-z]{2})\b/i.exec(tag)?.[1];
    if (region && COUNTRY_CURRENCY[region.toUpperCase()]) return region.toUpperCase();
  }
  return null;
}
