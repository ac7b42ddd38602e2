import { findChain, type ChainMatch } from './chain.rule.js';
import { currencyForCountry } from '../currency-country.js';
import { COUNTRIES, countryEntry, signPattern } from './countries.table.js';

/** ISO 4217 codes in use (no funds or precious-metal codes). */
export const ISO_4217 = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY ' +
    'COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR ' +
    'IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR ' +
    'MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD ' +
    'SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF ' +
    'XPF YER ZAR ZMW ZWL').split(' '),
);

const JAPANESE_SCRIPT = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** How much a piece of evidence weighs; the user's selection is worth PRIOR_WEIGHT. */
const PRIOR_WEIGHT = 2.5;
const CODE_WEIGHT = 3;
const SYMBOL_WEIGHT = 2;
/** A symbol printed again and again is more than OCR noise, but it does not add up forever. */
const SYMBOL_REPEAT_WEIGHT = 0.5;
const CUE_WEIGHT = 1.5;

/**
 * Symbols that name one currency but no one country, next to an amount (a country's own signs,
 * RM, ₱, lei …, are in countries.table.ts): OCR turns logos and smudges into stray € and ¥
 * signs, so a symbol alone counts once and cannot outvote the user's selection.
 */
const SYMBOLS: Array<[RegExp, string]> = [
  [/€\s?-?\d|\d\s?€/, 'EUR'],
  // "Tot Euro 122,10", "TOTAL ... EUROS": the word beside an amount or a total (not in a name, "Euro Deli").
  [/\beuros?\s?-?\d|\d\s?euros?\b|\b(tot(al)?|summe|importe)\b.*\beuros?\b/i, 'EUR'],
  [/(¥|円|￥)\s?\d|\d\s?円/, 'JPY'],
];

const COUNTRY_SIGNS = COUNTRIES.flatMap((c) => (c.signs ?? []).map((sign) => ({ country: c.country, re: new RegExp(signPattern(sign).source, 'gu') })));

/** Currencies written with a bare "$": a lone dollar sign supports any of them, USD most. */
const DOLLAR_CURRENCIES = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'CLP', 'COP', 'ARS', 'TWD', 'BRL']);

/** Codes that receipts print as words or abbreviations (Sdn Bhd, ALL items, CUP, TOP, PEN). */
const CODES_THAT_ARE_WORDS = new Set(['BHD', 'ALL', 'CUP', 'TOP', 'PEN', 'SOS', 'GEL', 'BAM', 'MOP', 'NAD', 'DOP', 'TRY', 'MAD', 'LAK', 'WST', 'SHP']);

export interface CurrencyEvidence {
  code: string;
  weight: number;
  /** The country the evidence places the receipt in, when it names one. */
  country?: string;
}

const repeatedWeight = (count: number) => SYMBOL_WEIGHT + Math.min(2, count - 1) * SYMBOL_REPEAT_WEIGHT;

/** Every piece of evidence the text holds, with its weight; `chain`: the known chain it names, when already looked for. */
export function currencyEvidence(text: string, chain: ChainMatch | null = findChain(text.split('\n'))): CurrencyEvidence[] {
  const evidence: CurrencyEvidence[] = [];
  // An ISO code beside an amount ("EUR 13,05", "Total (AED) 117.00", "13.05 CAD") or alone on its line (a column header).
  const codes = new Set<string>();
  const codePattern = /(?<![A-Za-z])([A-Z]{3})\)?:?(?:\$?\s?-?\d+[.,]\d{2}(?!\d)|\s*$)|\d[.,]\d{2}\s?([A-Z]{3})(?![A-Za-z])/gm;
  for (const m of text.matchAll(codePattern)) {
    const code = m[1] ?? m[2]!;
    if (!ISO_4217.has(code) || CODES_THAT_ARE_WORDS.has(code) || codes.has(code)) continue;
    codes.add(code);
    evidence.push({ code, weight: CODE_WEIGHT });
  }
  // Yen beside prices with cents, on a receipt with no Japanese script, is a misread mark; with no script at all, a weak sign.
  const japanese = JAPANESE_SCRIPT.test(text);
  const cents = (text.match(/\d[.,]\d{2}(?!\d)/g) ?? []).length >= 3;
  for (const [re, code] of SYMBOLS) {
    const strayYen = code === 'JPY' && !japanese;
    if (strayYen && cents) continue;
    const count = [...text.matchAll(new RegExp(re.source, re.flags + 'g'))].length;
    if (count > 0) evidence.push({ code, weight: strayYen ? SYMBOL_REPEAT_WEIGHT : repeatedWeight(count) });
  }
  for (const { country, re } of COUNTRY_SIGNS) {
    const count = [...text.matchAll(re)].length;
    if (count > 0) evidence.push({ code: countryEntry(country)!.currency, weight: repeatedWeight(count), country });
  }
  for (const entry of COUNTRIES) for (const cue of entry.cues ?? []) if (cue.test(text)) evidence.push({ code: entry.currency, weight: CUE_WEIGHT, country: entry.country });
  // A chain that trades in one currency's countries only ("Loblaws", "Coles") places the receipt.
  const chainCountries = chain?.chain.countries ?? [];
  const chainCurrencies = new Set(chainCountries.map(currencyForCountry));
  if (chainCurrencies.size === 1) {
    const code = [...chainCurrencies][0]!;
    if (code) evidence.push({ code, weight: CUE_WEIGHT, country: chainCountries.length === 1 ? chainCountries[0] : undefined });
  }
  return evidence;
}

/** The currency and what it rests on. */
export interface CurrencyDecision {
  code: string;
  /** Weight of what the receipt itself prints for it (codes, signs, the country's words); 0 when nothing does. */
  printed: number;
  /** It is the currency the user picked. */
  hinted: boolean;
  /** The country the receipt's evidence points to among those trading in the currency, if any. */
  country: string | null;
}

/**
 * The receipt's currency, decided on evidence. The user's selection is the prior; an ISO code,
 * a symbol backed by a second symbol or by country cues can override it; a single stray symbol
 * cannot. Where nothing is printed, country cues decide (GST/HST + a province → CAD, MwSt +
 * German words → EUR, 消費税 → JPY). Amounts with no decimals where a "$" stands point to a
 * peso rather than a dollar. Without any evidence: the selection, else USD.
 */
export function decideCurrency(text: string, userHint?: string, chain?: ChainMatch | null): string {
  return currencyDecision(text, userHint, chain).code;
}

/** decideCurrency with what the decision rests on: the weight printed for it, the user's pick, the country. */
export function currencyDecision(text: string, userHint?: string, chain?: ChainMatch | null): CurrencyDecision {
  const hint = userHint && ISO_4217.has(userHint.toUpperCase()) ? userHint.toUpperCase() : undefined;
  const scores = new Map<string, number>();
  const add = (code: string, weight: number) => scores.set(code, (scores.get(code) ?? 0) + weight);
  const evidence = currencyEvidence(text, chain);
  for (const { code, weight } of evidence) add(code, weight);
  // Switzerland also writes MwSt and German words: Swiss cues take the euro cues' weight.
  if (scores.has('CHF') && scores.has('EUR') && !/€/.test(text)) add('CHF', scores.get('EUR')!);
  const dollars = /\$\s?\d/.test(text);
  if (dollars) {
    const wholeOnly = !/\d[.,]\d{2}(?!\d)/.test(text) && /\$\s?\d{1,3}[.,]\d{3}(?!\d)/.test(text);
    add(wholeOnly ? 'CLP' : hint && DOLLAR_CURRENCIES.has(hint) ? hint : 'USD', 1);
  }
  const printed = new Map(scores);
  if (hint) add(hint, PRIOR_WEIGHT);
  let best: string | null = null;
  for (const [code, score] of scores) {
    if (best === null || score > scores.get(best)! || (score === scores.get(best) && code === hint)) best = code;
  }
  const code = best ?? hint ?? 'USD';
  // The country: the one the most evidence names among those trading in the currency.
  const byCountry = new Map<string, number>();
  for (const e of evidence) if (e.country && e.code === code) byCountry.set(e.country, (byCountry.get(e.country) ?? 0) + e.weight);
  const country = [...byCountry].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { code, printed: printed.get(code) ?? 0, hinted: code === hint, country };
}

/**
 * Spec §5 order: a currency code the service gave, then what the text says (symbols, codes,
 * keywords) weighed against the currency the user picked; the default is USD.
 */
export function detectCurrency(fieldCode: unknown, text: string, userHint?: string, chain?: ChainMatch | null): CurrencyDecision {
  const decided = currencyDecision(text, userHint, chain);
  if (typeof fieldCode !== 'string' || !ISO_4217.has(fieldCode.toUpperCase())) return decided;
  // The service read a code: it is printed (or the service knows better); the country only if it trades in it.
  const code = fieldCode.toUpperCase();
  return { code, printed: CODE_WEIGHT, hinted: code === userHint?.toUpperCase(), country: decided.code === code ? decided.country : null };
}
