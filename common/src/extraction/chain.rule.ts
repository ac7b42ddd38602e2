import { editDistance } from './edit-distance.js';
import { KNOWN_CHAINS, type KnownChain } from './known-chains.table.js';
import { keywordSource } from './keywords/index.js';

export interface ChainMatch {
  chain: KnownChain;
  /** Index of the line it was found on. */
  line: number;
  /**
   * `header`: a name at the start of a word in the receipt's first lines (the strongest);
   * `domain`: its web address anywhere; `mention`: its name as printed, anywhere (a loyalty
   * program, "Lidl Plus App"): only a fallback when the header holds no name; `brand`: its own brands
   * on several item lines ("Great Value …"), the last resort.
   */
  where: 'header' | 'domain' | 'mention' | 'brand';
}

/** Lines of the header a chain's name is looked for in. */
const HEADER_LINES = 16;
/** At this length and above one letter may be misread; shorter names must be read exactly. */
const FUZZY_LENGTH = 7;
const SIMILAR = 0.8;
/** An item or total line: a price on it. */
const PRICED = /\d[.,]\d{2}(?!\d)/;

/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** A name's letters and digits, lower case, spaces and marks taken out: how names are compared. */
export const nameLetters = (s: string) => s.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}&]/gu, '');

/** Which letters a string holds, a bit each (a–z, digits, anything else): to rule out a fuzzy match cheaply. */
function letterMask(s: string): number {
  let mask = 0;
  for (const c of s) {
    const code = c.charCodeAt(0);
    mask |= 1 << (code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? 26 : 27);
  }
  return mask;
}

function bits(n: number): number {
  let count = 0;
  for (let m = n; m; m &= m - 1) count++;
  return count;
}

interface Form {
  chain: KnownChain;
  letters: string;
  mask: number;
  /** The letters of the name's own words, its trade words taken out ("sm" of "SM Supermarket"): what a misread may not touch. */
  own: string;
}

const TRADE_WORD = new RegExp(keywordSource('business'), 'giu');

const FORMS: readonly Form[] = KNOWN_CHAINS.flatMap((chain) =>
  [chain.name, ...(chain.aliases ?? [])]
    .map((f) => ({ chain, letters: nameLetters(f), mask: letterMask(nameLetters(f)), own: nameLetters(f.replace(TRADE_WORD, ' ')) }))
    .filter((f) => f.letters.length >= 3),
);

const LONGEST_FORM = Math.max(...FORMS.map((f) => f.letters.length));

const isLetter = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** The letters of a line from one word start on (spaces and marks taken out), where each was printed, and which letters its first k hold. */
interface Reading {
  letters: string;
  at: number[];
  masks: number[];
}

function readFrom(line: string, start: number, max: number): Reading {
  let letters = '';
  const at: number[] = [];
  const masks = [0];
  for (let i = start; i < line.length && at.length < max; i++) {
    const c = nameLetters(line[i]!);
    if (!c) continue;
    letters += c;
    at.push(i);
    masks.push(masks[masks.length - 1]! | letterMask(c));
  }
  return { letters, at, masks };
}

/**
 * Whether a chain's name starts at a word of `line` and ends at a word's end: the letters are
 * compared with spaces taken out, since OCR splits words ("Westfa len") and letter-spaced logos
 * ("R E W E") read as single letters. Long names may have one letter in six misread.
 */
function startsWithName(line: string, read: Reading, form: Form): boolean {
  const want = form.letters.length;
  // "Coop" must not be read in "Cooperativa": the name ends where a word ends (Japanese has no spaces to end it).
  const endsWord = (n: number) => UNSPACED.test(form.letters) || !isLetter(line[read.at[n - 1]! + 1]);
  if (read.letters.startsWith(form.letters)) return endsWord(want);
  if (want < FUZZY_LENGTH) return false;
  const allowed = Math.floor(want * (1 - SIMILAR) + 1e-9);
  // Each edit loses at most one of the name's letters: more missing from what was read, no match.
  if (bits(form.mask & ~read.masks[Math.min(want + 1, read.letters.length)]!) > allowed) return false;
  // A long name may be misread in its trade word, not in its own: "T&T Supermarket" is no "SM Supermarket".
  if (form.own !== form.letters && !read.letters.slice(0, want + 1).includes(form.own)) return false;
  // One letter dropped or added by OCR ("HALIDIRAM'S") is allowed in long names: try each length.
  return [want, want - 1, want + 1].some(
    (n) => read.letters.length >= n && editDistance(read.letters.slice(0, n), form.letters, allowed) <= allowed && endsWord(n),
  );
}

/** Where words start on a line: a letter or digit after anything but a letter, a digit or a dot ("S.COOP." holds no "Coop"). */
function wordStarts(line: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < line.length; i++) if (isLetter(line[i]) && !isLetter(line[i - 1]) && line[i - 1] !== '.') starts.push(i);
  return starts;
}

function inHeader(lines: readonly string[]): ChainMatch | null {
  for (let i = 0; i < Math.min(lines.length, HEADER_LINES); i++) {
    const line = lines[i]!;
    if (PRICED.test(line)) continue;
    for (const start of wordStarts(line)) {
      const read = readFrom(line, start, LONGEST_FORM + 1);
      // The longest name that fits wins: "Carrefour Market" over "Carrefour".
      const found = FORMS.filter((f) => startsWithName(line, read, f)).sort((a, b) => b.letters.length - a.letters.length)[0];
      if (found) return { chain: found.chain, line: i, where: 'header' };
    }
  }
  return null;
}

const DOMAIN = /(?:www\.|@|\/\/|\b)([a-z0-9-]{3,})\.(?:com?\.)?(?:com|[a-z]{2})\b/giu;

function byDomain(lines: readonly string[]): ChainMatch | null {
  for (let i = 0; i < lines.length; i++) {
    for (const m of lines[i]!.matchAll(DOMAIN)) {
      const label = nameLetters(m[1]!);
      const found = FORMS.find((f) => f.letters === label);
      if (found) return { chain: found.chain, line: i, where: 'domain' };
    }
  }
  return null;
}

/** Each chain's name as it prints it and in capitals, four letters or more. */
const MENTIONS = KNOWN_CHAINS.flatMap((chain) => [chain.name, chain.name.toUpperCase()].filter((form) => form.length >= 4).map((form) => ({ chain, form })));

/** The name as the chain prints it (or in capitals), as a whole word anywhere. */
function mentioned(lines: readonly string[]): ChainMatch | null {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const { chain, form } of MENTIONS) {
      const at = line.indexOf(form);
      const before = line[at - 1];
      if (at >= 0 && !isLetter(before) && before !== '.' && !isLetter(line[at + form.length])) return { chain, line: i, where: 'mention' };
    }
  }
  return null;
}

/** Lines carrying a chain's own brand for it to count as named: one such item could have come from anywhere. */
const BRAND_LINES = 2;

const BRANDS = KNOWN_CHAINS.flatMap((chain) =>
  (chain.brands ?? []).map((brand) => ({ chain, re: new RegExp(`(?<![\\p{L}\\p{N}])${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'iu') })),
);

/** The chain whose own brands are on at least BRAND_LINES lines. */
function byBrands(lines: readonly string[]): ChainMatch | null {
  const seen = new Map<KnownChain, number[]>();
  lines.forEach((line, i) => {
    const chains = new Set(BRANDS.filter((b) => b.re.test(line)).map((b) => b.chain));
    for (const chain of chains) seen.set(chain, [...(seen.get(chain) ?? []), i]);
  });
  const [chain, at] = [...seen].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  return chain && at!.length >= BRAND_LINES ? { chain, line: at![0]!, where: 'brand' } : null;
}

/** A known chain the receipt names: in its header first, then by its web address, then anywhere, then by its brands. */
export function findChain(lines: readonly string[]): ChainMatch | null {
  return inHeader(lines) ?? byDomain(lines) ?? mentioned(lines) ?? byBrands(lines);
}
