import { findChain, type ChainMatch } from './chain.rule.js';
import { currencyForCountry } from '../currency-country.js';

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
 * Symbols that name one currency, next to an amount: OCR turns logos and smudges into stray
 * £ and ¥ signs, so a symbol alone counts once and cannot outvote the user's selection.
 */
const SYMBOLS: Array<[RegExp, string]> = [
  [/€\s?-?\d|\d\s?€/, 'EUR'],
  [/£\s?\d+[.,]\d{2}/, 'GBP'],
  [/(¥|円|￥)\s?\d|\d\s?円/, 'JPY'],
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

/**
 * Words, tax names, addresses and phone prefixes that place a receipt in a country when no
 * symbol does (or to outvote a stray one). Each distinct cue counts once.
 */
const CUES: Array<[RegExp, string]> = [
  // Malaysia: Bhd / Berhad, whatever OCR made of the "Sdn" before it; SST/GST ids.
  [/\b(ringgit|malaysia|kuala lumpur|selangor|johor|penang|sabah|sarawak)\b/i, 'MYR'],
  [/\b(sdn\.?\s*bhd|s\/b|bhd|berhad)\b/i, 'MYR'],
  [/\bgst\s*id\b|\bsst\s*(id|reg|no)\b|\(RM\)|\bRM\b/i, 'MYR'],
  [/\b(singapore|pte\.?\s*ltd)\b/i, 'SGD'],
  [/\b(philippines|manila|cebu|quezon|makati|taguig|pasig)\b|\bvat\s*reg\.?\s*tin\b/i, 'PHP'],
  [/\bBIR\s*(permit|accr|acc(?:reditation)?|ptu)|\bsalamat\b|\bvatable\b/i, 'PHP'],
  [/\b(rupees?|india|gstin|cgst|sgst|igst|mumbai|delhi|bengaluru|bangalore|kolkata|chennai|hyderabad)\b/i, 'INR'],
  // A GSTIN: state code, PAN (five letters, four digits, a letter), entity number, Z, check character.
  [/\b\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]{3}\b/, 'INR'],
  [/\+91[\s-]?\d|\bpin\s*code\b/i, 'INR'],
  // "Rs." is India's, but OCR also reads Brazil's R$ as "Rs": a cue, not a symbol.
  [/\bRs\.?\s?\d/, 'INR'],
  // Canada: GST/HST/PST/QST with a province, a Canadian postcode or a GST/HST number.
  [/\b(hst|qst|tvq|pst)\b/i, 'CAD'],
  [/\b(ontario|quebec|québec|alberta|manitoba|saskatchewan|nova scotia|new brunswick|british columbia|toronto|montreal|montréal|vancouver|calgary|ottawa|winnipeg|canada)\b/i, 'CAD'],
  [/\b(on|qc|bc|ab|mb|sk|ns|nb|pe|nl)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/, 'CAD'],
  [/\b[A-Z]\d[A-Z]\s\d[A-Z]\d\b/, 'CAD'],
  [/\bgst\s*\/\s*hst\b|\bhst\s*(#|no\.?|number|reg)/i, 'CAD'],
  // Australia and New Zealand.
  [/\bABN\b|\bAustralia\b|\bAUSTRALIA\b|\b(NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b/, 'AUD'],
  [/\b(new zealand|auckland|wellington)\b/i, 'NZD'],
  // Euro area: the tax names and words of its languages, its VAT ids.
  [/\b(mwst|ust|umsatzsteuer|mehrwertsteuer|steuer-?nr|ust-?id(nr)?)\b/i, 'EUR'],
  [/\b(summe|gesamt|r(ü|u|ue)ckgeld|gegeben|bar|kasse|danke|vielen dank|pfand|leergut|stk|deutschland|gmbh)\b/i, 'EUR'],
  [/\b(tva|ttc|siret|siren|merci|esp(è|e)ces|rendu|montant)\b/i, 'EUR'],
  // Spanish and Portuguese words are Latin America's too: only Spain's and Portugal's own ids and names place a receipt in the euro area.
  [/\b(nif|cif|españa|espana)\b/i, 'EUR'],
  [/\b(btw|totaal|bedankt|kassabon|pinnen)\b/i, 'EUR'],
  [/\b(scontrino|totale|contanti|grazie|partita iva|p\.\s?iva)\b/i, 'EUR'],
  [/\b(nipc|contribuinte|portugal|multibanco)\b/i, 'EUR'],
  // VAT ids in each country's own format.
  [/\b(DE\s?\d{9}|FR\s?[0-9A-Z]{2}\s?\d{9}|IT\s?\d{11}|NL\s?\d{9}B\d{2}|PT\s?\d{9}|ATU\s?\d{8}|BE\s?0\d{9}|ES\s?[A-Z0-9]\d{7}[A-Z0-9])\b/, 'EUR'],
  [/\+(49|33|34|39|31|351|43|32|353)[\s-]?\d/, 'EUR'],
  // Switzerland: CHE-numbers, Swiss cantons and cities (its receipts also say MwSt).
  [/\bCHE[-\s]?\d{3}\.\d{3}\.\d{3}\b|\b(zürich|zurich|genève|geneve|basel|bern|lausanne|luzern|winterthur|lugano)\b/i, 'CHF'],
  [/\+41[\s-]?\d/, 'CHF'],
  // United Kingdom: VAT numbers, postcodes, the pound.
  [/\b(pounds? sterling|united kingdom|england|scotland|wales|london)\b/i, 'GBP'],
  [/\bvat\s*(reg(istration)?\.?\s*)?(no|number)?\.?\s*:?\s*(GB)?\s?\d{3}\s?\d{4}\s?\d{2}\b/i, 'GBP'],
  [/\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/, 'GBP'],
  [/\+44[\s-]?\d/, 'GBP'],
  // Japan: its script, consumption tax, yen.
  [/[\u3040-\u30ff]{2}|消費税|税込|合計|小計|領収|\byen\b/i, 'JPY'],
  // Chile: RUT, boleta, propina, pesos without decimals.
  [/\b(rut|boleta|propina|chile|santiago)\b/i, 'CLP'],
  [/\b(cnpj|cpf|brasil|icms|cupom fiscal|nfc-?e)\b/i, 'BRL'],
  [/\bnota fiscal\b|\bconsumidor\b/i, 'BRL'],
  [/\btrib(utos)?\.?\s*aprox/i, 'BRL'],
  [/\b(rio de janeiro|s(ã|a)o paulo|belo horizonte)\b/i, 'BRL'],
  // An NFC-e's access key and the state treasury's web address.
  [/\bchave\s+de\s+acesso\b|\bfazenda\b|\.gov\.br\b/i, 'BRL'],
  [/\b(rfc|m(é|e)xico|cdmx)\b/i, 'MXN'],
  // United States: a state and ZIP code, sales tax.
  [/\b(AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY),?\s+\d{5}(-\d{4})?\b/, 'USD'],
  [/\bsales\s*tax\b|\bstate\s*tax\b/i, 'USD'],
];

/** Currencies written with a bare "$": a lone dollar sign supports any of them, USD most. */
const DOLLAR_CURRENCIES = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'CLP', 'COP', 'ARS', 'TWD', 'BRL']);

/** Codes that receipts print as words or abbreviations (Sdn Bhd, ALL items, CUP, TOP, PEN). */
const CODES_THAT_ARE_WORDS = new Set(['BHD', 'ALL', 'CUP', 'TOP', 'PEN', 'SOS', 'GEL', 'BAM', 'MOP', 'NAD', 'DOP', 'TRY', 'MAD', 'LAK', 'WST', 'SHP']);

export interface CurrencyEvidence {
  code: string;
  weight: number;
}

/** Every piece of evidence the text holds, with its weight; `chain`: the known chain it names, when already looked for. */
export function currencyEvidence(text: string, chain: ChainMatch | null = findChain(text.split('\n'))): CurrencyEvidence[] {
  const evidence: CurrencyEvidence[] = [];
  // An ISO code beside an amount ("EUR 13,05", "13.05 CAD") or alone on its line (a column header).
  const codes = new Set<string>();
  const codePattern = /(?<![A-Za-z])([A-Z]{3})(?:\$?\s?-?\d+[.,]\d{2}(?!\d)|\s*$)|\d[.,]\d{2}\s?([A-Z]{3})(?![A-Za-z])/gm;
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
    if (count > 0) evidence.push({ code, weight: strayYen ? SYMBOL_REPEAT_WEIGHT : SYMBOL_WEIGHT + Math.min(2, count - 1) * SYMBOL_REPEAT_WEIGHT });
  }
  for (const [re, code] of CUES) if (re.test(text)) evidence.push({ code, weight: CUE_WEIGHT });
  // A chain that trades in one currency's countries only ("T&T Supermarket", "Coles") places the receipt.
  const chainCurrencies = new Set(chain?.chain.countries.map(currencyForCountry));
  if (chainCurrencies.size === 1) evidence.push({ code: [...chainCurrencies][0]!, weight: CUE_WEIGHT });
  return evidence;
}

/**
 * The receipt's currency, decided on evidence. The user's selection is the prior; an ISO code,
 * a symbol backed by a second symbol or by country cues can override it; a single stray symbol
 * cannot. Where nothing is printed, country cues decide (GST/HST + a province → CAD, MwSt +
 * German words → EUR, 消費税 → JPY). Amounts with no decimals where a "$" stands point to a
 * peso rather than a dollar. Without any evidence: the selection, else USD.
 */
export function decideCurrency(text: string, userHint?: string, chain?: ChainMatch | null): string {
  const hint = userHint && ISO_4217.has(userHint.toUpperCase()) ? userHint.toUpperCase() : undefined;
  const scores = new Map<string, number>();
  const add = (code: string, weight: number) => scores.set(code, (scores.get(code) ?? 0) + weight);
  for (const { code, weight } of currencyEvidence(text, chain)) add(code, weight);
  // Switzerland also writes MwSt and German words: Swiss cues take the euro cues' weight.
  if (scores.has('CHF') && scores.has('EUR') && !/€/.test(text)) add('CHF', scores.get('EUR')!);
  const dollars = /\$\s?\d/.test(text);
  if (dollars) {
    const wholeOnly = !/\d[.,]\d{2}(?!\d)/.test(text) && /\$\s?\d{1,3}[.,]\d{3}(?!\d)/.test(text);
    add(wholeOnly ? 'CLP' : hint && DOLLAR_CURRENCIES.has(hint) ? hint : 'USD', 1);
  }
  if (hint) add(hint, PRIOR_WEIGHT);
  let best: string | null = null;
  for (const [code, score] of scores) {
    if (best === null || score > scores.get(best)! || (score === scores.get(best) && code === hint)) best = code;
  }
  return best ?? hint ?? 'USD';
}

/**
 * Spec §5 order: a currency code the service gave, then what the text says (symbols, codes,
 * keywords) weighed against the currency the user picked; the default is USD.
 */
export function detectCurrency(fieldCode: unknown, text: string, userHint?: string, chain?: ChainMatch | null): string {
  if (typeof fieldCode === 'string' && ISO_4217.has(fieldCode.toUpperCase())) return fieldCode.toUpperCase();
  return decideCurrency(text, userHint, chain);
}
