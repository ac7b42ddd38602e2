/** ISO 4217 codes in use (no funds or precious-metal codes). */
export const ISO_4217 = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY ' +
    'COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR ' +
    'IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR ' +
    'MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD ' +
    'SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF ' +
    'XPF YER ZAR ZMW ZWL').split(' '),
);

/**
 * Spec §5 symbols, then printed prefixes that name a currency unambiguously. A symbol counts
 * only next to an amount: OCR turns logos and smudges into stray £ and ¥ signs.
 */
const SYMBOLS: Array<[RegExp, string]> = [
  [/€\s?\d|\d\s?€/, 'EUR'],
  [/£\s?\d+[.,]\d{2}/, 'GBP'],
  [/(¥|円)\s?\d|\d\s?円/, 'JPY'],
  [/₱\s?\d/, 'PHP'],
  [/₹\s?\d/, 'INR'],
  [/₩\s?\d/, 'KRW'],
  [/฿\s?\d/, 'THB'],
  [/\bRM\s?\d/, 'MYR'],
  [/\bS\$\s?\d/, 'SGD'],
  [/\bA\$\s?\d/, 'AUD'],
  [/\bC\$\s?\d/, 'CAD'],
  [/\bHK\$\s?\d/, 'HKD'],
  [/\bR\$\s?\d/, 'BRL'],
  [/\bRp\.?\s?\d/, 'IDR'],
];

/** Words that place a receipt in a country when no symbol does. */
const KEYWORDS: Array<[RegExp, string]> = [
  // Bhd / Berhad: the Malaysian company suffix, whatever OCR made of the "Sdn" before it.
  [/\b(ringgit|malaysia|kuala lumpur|selangor|bhd|berhad|\bgst id\b|johor|penang)\b/i, 'MYR'],
  [/\b(singapore|pte\.? ltd)\b/i, 'SGD'],
  [/\b(peso|philippines|manila)\b/i, 'PHP'],
  [/\b(rupees?|india|gstin)\b/i, 'INR'],
  [/\b(euro|mwst|ust-id|tva|iva)\b/i, 'EUR'],
  [/\b(pounds? sterling|united kingdom|vat reg)\b/i, 'GBP'],
  [/\b(yen)\b/i, 'JPY'],
];

/**
 * Spec §5 order: a currency code the service gave, then a symbol in the text, then keywords;
 * the currency the user picked comes before the default, and the default is USD. A bare "$"
 * is used by a dozen currencies (and by some ringgit tills), so it only counts after the
 * keywords, as the user's dollar currency or else USD.
 */
export function detectCurrency(fieldCode: unknown, text: string, userHint?: string): string {
  if (typeof fieldCode === 'string' && ISO_4217.has(fieldCode.toUpperCase())) return fieldCode.toUpperCase();
  const codeInText = /\b([A-Z]{3})\s?\d+[.,]\d{2}\b/.exec(text)?.[1];
  if (codeInText && ISO_4217.has(codeInText)) return codeInText;
  for (const [re, code] of SYMBOLS) if (re.test(text)) return code;
  for (const [re, code] of KEYWORDS) if (re.test(text)) return code;
  const hint = userHint && ISO_4217.has(userHint) ? userHint : undefined;
  if (/\$\s?\d/.test(text)) return hint && hint.endsWith('D') ? hint : 'USD';
  return hint ?? 'USD';
}
