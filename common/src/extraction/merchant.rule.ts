import type { RecognizedField } from '../recognized-document.js';
import { findChain, nameLetters, type ChainMatch } from './chain.rule.js';
import { ISO_4217 } from './currency.rule.js';
import { US_STATES } from './countries.table.js';
import { keywordAlternatives, keywordSource, type KeywordKind } from './keywords/index.js';
import { HAND_SET_NAME_WEIGHTS, NAME_WEIGHTS } from './merchant-name.weights.js';
import { NAME_FEATURES, type NameFeature, type NameWeights } from './merchant-name.features.js';

export { HAND_SET_NAME_WEIGHTS, FITTED_NAME_WEIGHTS, NAME_WEIGHTS } from './merchant-name.weights.js';

export const MERCHANT_CONFIDENCE = 0.8;
/** Spec §5's skipped words, and "Tax invoice" however OCR spells the second word. */
const SKIPPED_PREFIXES = /^(receipt|official|sales|vat|invoice|tax\s+in)/i;
/** Legal forms and trade words that mark a business name, in every language's table. */
const BUSINESS_WORDS = new RegExp(keywordSource('business'), 'iu');
/** Trade words alone (and the words joining them): what may follow a chain's name on its line ("Aral Tankstelle", "Lidl Supermarkt"), or stand on a line of their own under a name. */
const TRADE_WORDS_ONLY = new RegExp(`^(?:${keywordAlternatives('business')}|&|and|und|et|y)+$`, 'iu');
/** Lines that greet, title or thank, or name only a trade: a name only when nothing better is printed. */
const GENERIC_LINE = new RegExp(
  `^(?:${keywordAlternatives('greeting')}|${keywordAlternatives('documentTitle')}|${keywordAlternatives('business')})(?![\\p{L}])[\\s!.,:]*(to|zu|à|a)?(?![\\p{L}])[\\s!.,:]*$`,
  'iu',
);
const DOMAIN = /\.(com|de|fr|es|it|nl|co\.uk|ca)\b/;
/** Lines of an address, a phone or a web page: never the name. */
const ADDRESS_LINE = new RegExp(`${keywordSource('contact')}|${keywordSource('address')}|(str|st|rd)\\.(\\s|$)|${DOMAIN.source}|\\d{4,}`, 'iu');
/** Where and for whom, labelling a value ("TABLE 19", "Check #137", "Kasse 3"); "Round Table Pizza" is a name. */
const STAFF_LINE = new RegExp(`(?:${keywordSource('staff')})\\s*(?:(?:no|nr|number)\\.?\\s*)?(?:[:#.]|\\d)`, 'iu');
const COLUMN_WORD = new RegExp(keywordSource('columnHeader'), 'giu');
/** A US town line: "Ventura, CA", "FAIR OAKS, CA". */
const TOWN_LINE = new RegExp(`,\\s*(?:${US_STATES})\\.?$`);
/** Phone numbers, web addresses, postcodes, who served, "label: value" lines and priced lines (items, totals) are never the name ("COTTON:ON" is). */
const NEVER_A_NAME = new RegExp(`${keywordSource('contact')}|${keywordSource('servedBy')}|${DOMAIN.source}|\\d{4,}|^[\\p{L}\\s.]{2,20}:(\\s|$)|\\d[.,]\\d{2}(?!\\d)`, 'iu');
/** A line of column headers over the items ("QTY DESCRIPTION PRICE"): two or more of them. */
const isColumnHeader = (line: string) => (line.match(COLUMN_WORD) ?? []).length >= 2;
/** A line of payment, tax, registration or document-title words alone ("CASH", "GST", "(GST Reg No.)" once its number is cleaned off, "TAX INVOICE"). */
const SUMS_WORDS_ONLY = new RegExp(
  `^(?:(?:${['tax', 'tin', 'cash', 'card', 'total', 'grandTotal', 'subtotal', 'documentTitle'].map((k) => keywordAlternatives(k as KeywordKind)).join('|')}|reg(istration)?|no|id)[\\s.:#()/-]*)+$`,
  'iu',
);
const neverAName = (line: string) => NEVER_A_NAME.test(line) || STAFF_LINE.test(line) || isColumnHeader(line) || TOWN_LINE.test(line) || SUMS_WORDS_ONLY.test(line);
/** Short words names are made with ("Café de Flore", "Bar & Grill"). */
const NAME_PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'el', 'los', 'las', 'da', 'do', 'di', 'del', 'der', 'die', 'das', 'und', 'and', 'of', 'the', 'van', 'von', 'y', 'e', 'et', 'am', 'im', 'zum', 'zur', 'au', 'aux']);
/** A store, branch or register line: "Store #006", "Filiale 0449", "Succursale", "店舗". */
const STORE_LINE = /^(store|st|branch|filiale|markt|succursale|magasin|tienda|loja|negozio|winkel)\s*(#|no\.?|nr\.?|:)?\s*\d|店舗|支店/i;
/** Below this a line is only an address or a greeting: better no name than that. */
const MIN_NAME_SCORE = -2.5;
/** Words that begin the legal-form tail of a name printed on a line of its own (a company-number label does not). */
const LEGAL_FORM_START = /^(co\.(?!\s*(?:n[o0]|reg)\b)|company\b(?!\s*(?:n[o0]|reg)\b)|sdn\b|s\/b\b|bhd\b|berhad\b|ltd\b|limited\b|inc\b|llc\b|gmbh\b|pty\b|pte\b|plc\b|corp\b|enterprise\b|trading\b|\(m\))/i;
const OWNED_BY = /^(owned|own|operated|managed)\s*by\s*:?\s*/i;
/** How many lines from the top a name may be printed, once junk lines are skipped. */
const HEAD_LINES = 8;
/** Lines at the foot of the receipt where a legal name may be printed. */
const TAIL_LINES = 8;
/** Legal forms only: a company's registered name. */
const LEGAL_FORM =
  /(?<![\p{L}])(gmbh|ag|kg|ohg|e\.\s?k|ltd|limited|llc|inc|corp|plc|pty|pte|sdn\.?\s*bhd|bhd|berhad|s\/b|s\.a\.?s?|s\.l\.|sarl|s\.r\.l|s\.p\.a|b\.v|n\.v|lda|ltda)\.?(?![\p{L}])|株式会社|有限会社/iu;
/** Below this a header line is only a guess: a chain named elsewhere on the receipt is more likely the merchant. */
const WEAK_NAME_SCORE = 1;
/** Lines looked at, junk included: a photo's background may put a few above the receipt. */
const SCANNED_LINES = 16;

/** Tidies a name line: OCR edge noise, registration numbers like (123456-A), trailing punctuation. */
export function cleanMerchantLine(line: string): string {
  return line
    .replace(/[{[]/g, '(')
    .replace(/[}\]]/g, ')')
    .replace(OWNED_BY, '')
    .replace(/\(?\s*co\.?\s*(no|reg)\.?\s*[:.]?\s*\(?\s*[\dA-Z-]*\d[\dA-Z-]*\s*\)?/gi, ' ')
    .replace(/\(\s*[\dA-Z]{0,3}\d{3,}[^)]{0,4}\)/gi, ' ')
    .replace(/\(\s*[\dA-Z]{0,3}\d{4,}\S*$/i, ' ')
    .replace(/\b(co\.?\s*)?(reg|gst|company)\.?\s*(no|id)?\.?\s*[:.]?\s*[\dA-Z-]{5,}.*$/i, ' ')
    // A store's number after its name ("BESTBUY#994", "Steak 'n Shake No:11").
    .replace(/\s*(#|\bno\.?\s*:?)\s*\d+\s*$/i, ' ')
    // A company number after the name, without its brackets ("SRI MURNI BAKERY SDN BHD 765432-K").
    .replace(/\s\d{5,8}-[A-Z]\s*$/, ' ')
    .replace(/^[^\p{L}0-9]+|[^\p{L}0-9.)]+$/gu, '')
    // A letter-spaced logo ("M A R K E T", "R E W E") is one word.
    .replace(/(?<![\p{L}])\p{L}(?: \p{L}(?![\p{L}])){2,}/gu, (m) => m.replace(/ /g, ''))
    .replace(/^.*$/u, spacedLettersJoined)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Letters OCR spaced out of their words ("T HE W E LL", "Watermi l l"): where a line
 * holds two or more lone letters, a lone capital starts the word after it (unless that word is
 * capitalised itself) and a lone small letter ends the word before it.
 */
function spacedLettersJoined(line: string): string {
  const words = line.split(' ');
  if (words.filter((w) => /^\p{L}$/u.test(w)).length < 2) return line;
  const out: string[] = [];
  let pending = '';
  for (const w of words) {
    if (/^\p{Lu}$/u.test(w)) pending += w;
    else if (/^\p{Ll}$/u.test(w) && !pending && /\p{L}$/u.test(out.at(-1) ?? '')) out[out.length - 1] += w;
    // A capitalised word starts anew ("A & W Restaurant"); capitals or small letters go on from the lone capital.
    else if (pending && /^\p{L}/u.test(w) && !/^\p{Lu}\p{Ll}/u.test(w)) {
      out.push(pending + w);
      pending = '';
    } else {
      if (pending) out.push(pending);
      pending = '';
      out.push(w);
    }
  }
  if (pending) out.push(pending);
  return out.join(' ');
}

const letterCount = (line: string) => (line.match(/\p{L}/gu) ?? []).length;

/** Spec §5: 3–50 characters, letters (and the punctuation of names), not starting with a digit or a skipped word. */
export function isNameLike(line: string, allowLeadingDigit = false): boolean {
  if (line.length < 3 || line.length > 50 || SKIPPED_PREFIXES.test(line)) return false;
  if (/^\d/.test(line) && !allowLeadingDigit) return false;
  const letters = letterCount(line);
  // Name punctuation (. & ' ( ) - /) is neutral; digits and stray symbols count against.
  const others = line.replace(/[\p{L}\s.&'’()\-\/]/gu, '').length;
  return letters >= 3 && /^[\p{L}\p{M}0-9 &.'’,()\-\/@*+]+$/u.test(line) && letters / (letters + others) >= 0.6;
}

/**
 * OCR of a photo's background, torn edges and logos: short fragments, lines of mostly
 * symbols, words of one or two letters strung together.
 */
export function isJunkLine(line: string): boolean {
  // A currency column header ("EUR") is not a name.
  if (/^[A-Z]{3}$/.test(line.trim()) && ISO_4217.has(line.trim())) return true;
  const letters = letterCount(line);
  if (letters < 3) return true;
  if (letters / line.replace(/\s/g, '').length < 0.6) return true;
  const words = line.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  const longest = Math.max(...words.map((w) => letterCount(w)));
  // Japanese names are one long "word"; Latin names have a word of three letters or more.
  if (longest < 3) return true;
  const tiny = words.filter((w) => letterCount(w) <= 2).length;
  // Initials OCR spaced out stand in a company's registered name ("A. B.C. (M) SDN BHD"): its legal form says it is a name.
  return words.length >= 4 && tiny / words.length > 0.5 && !LEGAL_FORM.test(line);
}


/** A header line that may name the merchant: where it stands and what it looks like. */
export interface NameCandidate {
  index: number;
  rank: number;
  features: Record<NameFeature, number>;
}

function nameFeatures(line: string, rank: number, storeBelow: boolean, foot: boolean): Record<NameFeature, number> {
  const letters = line.replace(/[^\p{L}]/gu, '');
  const words = line.split(' ');
  return {
    business: BUSINESS_WORDS.test(line) ? 1 : 0,
    generic: GENERIC_LINE.test(line) ? 1 : 0,
    address: ADDRESS_LINE.test(line) ? 1 : 0,
    capitals: letters.length > 0 && letters === letters.toUpperCase() && /\p{Lu}/u.test(letters) ? 1 : 0,
    loneLetters: words.filter((w) => w.length === 1 && !/[&A-Z]/.test(w)).length > 1 ? 1 : 0,
    noiseWords: words.filter((w) => /\p{L}\d+\p{L}/u.test(w)).length,
    scraps: words.filter((w) => /^\p{Ll}[\p{L}]{0,2}[.,]?$/u.test(w) && !NAME_PARTICLES.has(w.toLowerCase())).length,
    rank,
    storeBelow: storeBelow ? 1 : 0,
    foot: foot ? 1 : 0,
  };
}

export const nameScore = (c: Pick<NameCandidate, 'features'>, weights: NameWeights): number =>
  NAME_FEATURES.reduce((sum, f) => sum + weights[f] * c.features[f], 0);

/**
 * The merchant: the service's MerchantName at confidence 0.8 or more; otherwise the strongest
 * name-like line among the first lines once junk is skipped — a legal form or trade word and
 * capitals raise a line, a greeting or a generic word alone ("Cafe", "Receipt") lowers it, an
 * address is never a name. A known chain (known-chains.table.ts) named in the header, where OCR
 * often reads only part of a logo, names the merchant.
 */
export function findMerchant(
  field: RecognizedField | undefined,
  lines: readonly string[],
  chain: ChainMatch | null = findChain(lines),
  weights: NameWeights = NAME_WEIGHTS,
): FoundMerchant | null {
  const fromService = typeof field?.value === 'string' ? field.value : field?.content;
  if (fromService && (field?.confidence ?? 0) >= MERCHANT_CONFIDENCE) return { name: fromService.trim(), confidence: field!.confidence!, via: 'service' };
  const named = nameLine(lines, weights);
  // A known chain in the header names the merchant; a header line that holds the chain's name
  // ("MODELO CONTINENTE HIPERMERCADOS SA") is its fuller printed form.
  const holdsChain = named && chain && named.line < SCANNED_LINES && findChain([named.name])?.chain === chain.chain;
  // Brands name the chain, not the line they stand on.
  const asPrinted = chain && { name: chain.where === 'brand' ? chain.chain.name : chainName(chain.chain.name, cleanMerchantLine(lines[chain.line]!)), line: chain.line };
  // A legal name printed above the chain ("LAVENDER BAKERY S/B" over "AEON Mall …") is a shop inside
  // the chain's mall; one printed below it is the company operating the chain's store (イオンリテール株式会社).
  const legalHeader = named && chain && named.line < chain.line && LEGAL_FORM.test(named.name);
  if (chain?.where === 'header' && !holdsChain && !legalHeader) return { ...asPrinted!, confidence: 0.8, via: 'chain' };
  // A web address or a mention elsewhere only stands in for a header with no real name.
  if (chain && !holdsChain && (!named || named.score < WEAK_NAME_SCORE)) return { ...asPrinted!, confidence: 0.5, via: 'mention' };
  if (!named) return null;
  // A header line holding a known chain's name is that chain's, as printed.
  const via = holdsChain ? 'chain' : named.line >= SCANNED_LINES ? 'foot' : 'header';
  return {
    name: named.name,
    confidence: named.confidence,
    line: named.line,
    via,
    rank: named.rank,
    score: named.score,
    repeated: printedAgain(named.name, lines, named.line),
    mayContinue: via === 'header' && mayContinue(named.name, lines, named.line),
    underTitlesOnly: via === 'header' && named.rank > 0 && onlyTitlesAbove(lines, named.line),
  };
}

/** Every line kept above the name titles the document or greets ("TAX INVOICE", "Welcome"): no name was passed over. */
function onlyTitlesAbove(lines: readonly string[], line: number): boolean {
  return lines
    .slice(0, line)
    .map(cleanMerchantLine)
    .filter((l) => !isJunkLine(l))
    .every((l) => GENERIC_LINE.test(l) || SUMS_WORDS_ONLY.test(l));
}

/**
 * The merchant and how it was found: the service's field, a known chain in the header, a chain
 * mentioned elsewhere standing in for a header with no name, a header line (`rank`: how many
 * name-like lines stand above it, `score`: how much it looks like a name), a legal name at the foot.
 */
export interface FoundMerchant {
  name: string;
  confidence: number;
  line?: number;
  via: 'service' | 'chain' | 'mention' | 'header' | 'foot';
  rank?: number;
  score?: number;
  /** The name is printed again further down ("Thank you for dining at …", its web address). */
  repeated?: boolean;
  /** The line under the name could be more of it ("BERGDORF" / "GOODMAN"): a person should look. */
  mayContinue?: boolean;
  /** Only document titles and greetings stand above the name: it is the header's first name all the same. */
  underTitlesOnly?: boolean;
}

/** Lines this long are no name's next line but a sentence. */
const MAX_NEXT_LINE_WORDS = 3;

/**
 * Whether the line under a name read from the header (past the lines already joined to it) may be
 * the rest of it: a few plain words, no digits, no address, store, greeting or trade word alone. A
 * name ending in its legal form ("… SDN BHD") is whole.
 */
function mayContinue(name: string, lines: readonly string[], line: number): boolean {
  if (LEGAL_FORM.test(name)) return false;
  const letters = nameLetters(name);
  // The name's own lines, joined into it already.
  const joined = (raw: string) => {
    const own = nameLetters(cleanMerchantLine(raw));
    return own.length > 0 && letters.includes(own);
  };
  let next = line + 1;
  while (next < lines.length && joined(lines[next]!)) next++;
  const raw = lines[next];
  if (raw === undefined) return false;
  const clean = cleanMerchantLine(raw);
  return (
    clean.split(' ').length <= MAX_NEXT_LINE_WORDS &&
    !/\d/.test(raw) &&
    isNameLike(clean) &&
    !isJunkLine(clean) &&
    !GENERIC_LINE.test(clean) &&
    !ADDRESS_LINE.test(clean) &&
    !neverAName(raw) &&
    !STORE_LINE.test(raw)
  );
}

/** Names this short recur by chance. */
const MIN_REPEATED_LETTERS = 4;

/** Whether a name's letters stand again on a line below it (not the next one, which may be its own second line). */
function printedAgain(name: string, lines: readonly string[], line: number): boolean {
  const letters = nameLetters(name);
  return letters.length >= MIN_REPEATED_LETTERS && lines.some((l, i) => i > line + 1 && nameLetters(l).includes(letters));
}

/** The chain's line as printed when the rest of it is trade words, else the chain's own name. */
function chainName(name: string, line: string): string {
  const want = nameLetters(name);
  // Walk the line until its letters cover the chain's name; what follows must be trade words.
  let seen = '';
  for (let i = 0; i < line.length; i++) {
    seen += nameLetters(line[i]!);
    if (seen.length >= want.length) {
      const rest = line.slice(i + 1).replace(/\s+/g, '');
      return rest && TRADE_WORDS_ONLY.test(rest) ? line : name;
    }
  }
  return name;
}

/** A line that goes on from the one above: it starts with "&" or a joining particle ("& Grill", "of Brookfield"). */
const CONTINUES_ABOVE = /^\s*(?:&|\+|(?:and|und|et|of)(?![\p{L}]))/iu;

/** The "&" or "+" a continued line starts with, which cleaning takes off (a joining word it keeps). */
const joiningSign = (line: string) => {
  const sign = /^\s*([&+])/.exec(line)?.[1];
  return sign ? ` ${sign}` : '';
};

/** The name-like lines of the header, and legal names at the foot, that may name the merchant. */
export function nameCandidates(lines: readonly string[]): NameCandidate[] {
  const raw = lines.slice(0, SCANNED_LINES);
  const head = raw.map(cleanMerchantLine);
  const kept = head.map((line, i) => ({ line, i })).filter(({ line }) => !isJunkLine(line)).slice(0, HEAD_LINES);
  const candidates: NameCandidate[] = [];
  kept.forEach(({ line, i }, rank) => {
    // A business name may start with a number ("99 Speed Mart"); the spec's fallback may not.
    const business = BUSINESS_WORDS.test(line);
    // The raw line too: cleaning took a store's number off, and "Check #12" is no name.
    if (!isNameLike(line, business) || neverAName(line) || STAFF_LINE.test(raw[i]!) || STORE_LINE.test(raw[i]!)) return;
    // A store or branch line under a line names the chain above it ("ALDI" / "Store #006").
    candidates.push({ index: i, rank, features: nameFeatures(line, rank, STORE_LINE.test(kept[rank + 1]?.line ?? ''), false) });
  });
  // Some receipts print the legal name only at the foot ("REWE Markt GmbH"): a legal form there competes too.
  const tailStart = Math.max(SCANNED_LINES, lines.length - TAIL_LINES);
  for (let i = tailStart; i < lines.length; i++) {
    const line = cleanMerchantLine(lines[i]!);
    if (!LEGAL_FORM.test(line) || isJunkLine(line) || !isNameLike(line, true) || ADDRESS_LINE.test(line)) continue;
    candidates.push({ index: i, rank: HEAD_LINES, features: nameFeatures(line, HEAD_LINES, false, true) });
  }
  return candidates;
}

/**
 * The name line `weights` choose among the candidates (the first of equals), as printed over one
 * or more lines, and how much it looks like a name on the hand-set scale the thresholds are set on.
 */
function nameLine(lines: readonly string[], weights: NameWeights): { name: string; confidence: number; line: number; score: number; rank: number } | null {
  let best: NameCandidate | null = null;
  let bestScore = -Infinity;
  for (const c of nameCandidates(lines)) {
    const score = nameScore(c, weights);
    if (score > bestScore) [best, bestScore] = [c, score];
  }
  return best ? candidateName(lines, best) : null;
}

/** A candidate as the merchant's name, printed over one or more lines, with its hand-set score (null below the threshold). */
export function candidateName(lines: readonly string[], candidate: NameCandidate): { name: string; confidence: number; line: number; score: number; rank: number } | null {
  const { index, rank } = candidate;
  const score = nameScore(candidate, HAND_SET_NAME_WEIGHTS);
  if (score < MIN_NAME_SCORE) return null;
  const confidence = score >= 2 ? 0.7 : 0.5;
  if (index >= SCANNED_LINES) return { name: cleanMerchantLine(lines[index]!), confidence: 0.5, line: index, score, rank };
  const raw = lines.slice(0, SCANNED_LINES);
  const head = raw.map(cleanMerchantLine);
  // A line of trade words alone under a plain name ("Lotus Garden" / "Restaurant & Bar", "ADLER" / "APOTHEKE"): the name starts above.
  const above = index > 0 ? head[index - 1] : undefined;
  // A line that goes on from the name above it ("Harbour Burgers" / "& Grill"): the name starts above, joined as printed.
  if (above !== undefined && !isJunkLine(above) && CONTINUES_ABOVE.test(raw[index]!) && isNameLike(above, true) && !ADDRESS_LINE.test(above) && !neverAName(above)) {
    return { name: joinNameLines(raw, head, index, `${above}${joiningSign(raw[index]!)}`), confidence, line: index - 1, score, rank: rank - 1 };
  }
  if (above !== undefined && !isJunkLine(above) && TRADE_WORDS_ONLY.test(head[index]!.replace(/\s+/g, '')) && plainNameAbove(above)) {
    return { name: joinNameLines(raw, head, index, above), confidence, line: index - 1, score, rank: rank - 1 };
  }
  return { name: joinNameLines(raw, head, index), confidence, line: index, score, rank };
}

/** A short name-like line that is no address, greeting, title, staff line or business word of its own. */
const plainNameAbove = (line: string) =>
  isNameLike(line, true) && line.split(' ').length <= 4 && !BUSINESS_WORDS.test(line) && !GENERIC_LINE.test(line) && !ADDRESS_LINE.test(line) && !neverAName(line);

/**
 * Names printed over two or three lines: a legal-form tail on its own line ("CO. (M) SDN BHD")
 * joins the line above; an open parenthesis or a legal-form start on the next line joins it.
 */
function joinNameLines(raw: readonly string[], head: readonly string[], index: number, prefix?: string): string {
  let name = prefix ? `${prefix} ${head[index]!}` : head[index]!;
  const above = head[index - 1];
  if (LEGAL_FORM_START.test(name) && above && isNameLike(above, true) && !OWNED_BY.test(raw[index]!.trim())) {
    name = `${above} ${name}`;
  }
  for (let next = index + 1; next < Math.min(head.length, index + 3); next++) {
    const line = head[next]!;
    const open = (name.match(/\(/g) ?? []).length > (name.match(/\)/g) ?? []).length;
    // A trade word on a line of its own ("WHOLE FOODS" / "MARKET") ends the name above it.
    const tradeWord = TRADE_WORDS_ONLY.test(line.replace(/\s+/g, '')) && !/\d/.test(raw[next]!);
    // A line that starts by joining on ("Jolly Miller's" / "of Brookfield") is the name's next line.
    const continues = CONTINUES_ABOVE.test(raw[next]!);
    if (!(open || tradeWord || continues || LEGAL_FORM_START.test(line)) || !/\p{L}{2}/u.test(line) || /\d{3,}/.test(line) || ADDRESS_LINE.test(line)) break;
    name = `${name}${continues ? joiningSign(raw[next]!) : ''} ${line}`;
  }
  return name.replace(/\s+/g, ' ').trim();
}
