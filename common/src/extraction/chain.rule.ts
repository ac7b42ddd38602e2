import { editDistance } from './edit-distance.js';
import { KNOWN_CHAINS, type KnownChain } from './known-chains.table.js';

export interface ChainMatch {
  chain: KnownChain;
  /** Index of the line it was found on. */
  line: number;
  /**
   * `header`: a name at the start of a word in the receipt's first lines (the strongest);
   * `domain`: its web address anywhere; `mention`: its name as printed, anywhere (a loyalty
   * program, "Lidl Plus App"): only a fallback when the header holds no name.
   */
  where: 'header' | 'domain' | 'mention';
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

const compact = (s: string) => s.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}&]/gu, '');

interface Form {
  chain: KnownChain;
  letters: string;
}

const FORMS: readonly Form[] = KNOWN_CHAINS.flatMap((chain) =>
  [chain.name, ...(chain.aliases ?? [])].map((f) => ({ chain, letters: compact(f) })).filter((f) => f.letters.length >= 3),
);

const isLetter = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Whether a chain's name starts at a word of `line` and ends at a word's end: the letters are
 * compared with spaces taken out, since OCR splits words ("Westfa len") and letter-spaced logos
 * ("R E W E") read as single letters. Long names may have one letter in six misread.
 */
function startsWithName(line: string, start: number, form: Form): boolean {
  const letters: string[] = [];
  const at: number[] = [];
  for (let i = start; i < line.length && letters.length <= form.letters.length; i++) {
    const c = compact(line[i]!);
    if (!c) continue;
    letters.push(c);
    at.push(i);
  }
  const want = form.letters.length;
  // One letter dropped or added by OCR ("HALIDIRAM'S") is allowed in long names: try each length.
  const lengths = want >= FUZZY_LENGTH ? [want, want - 1, want + 1] : [want];
  return lengths.some((n) => {
    if (letters.length < n) return false;
    const read = letters.slice(0, n).join('');
    const same = read === form.letters || (want >= FUZZY_LENGTH && 1 - editDistance(read, form.letters) / want >= SIMILAR);
    // "Coop" must not be read in "Cooperativa": the name ends where a word ends (Japanese has no spaces to end it).
    return same && (UNSPACED.test(form.letters) || !isLetter(line[at[n - 1]! + 1]));
  });
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
      // The longest name that fits wins: "AEON STYLE" over "AEON".
      const found = FORMS.filter((f) => startsWithName(line, start, f)).sort((a, b) => b.letters.length - a.letters.length)[0];
      if (found) return { chain: found.chain, line: i, where: 'header' };
    }
  }
  return null;
}

const DOMAIN = /(?:www\.|@|\/\/|\b)([a-z0-9-]{3,})\.(?:com?\.)?(?:com|[a-z]{2})\b/giu;

function byDomain(lines: readonly string[]): ChainMatch | null {
  for (let i = 0; i < lines.length; i++) {
    for (const m of lines[i]!.matchAll(DOMAIN)) {
      const label = compact(m[1]!);
      const found = FORMS.find((f) => f.letters === label);
      if (found) return { chain: found.chain, line: i, where: 'domain' };
    }
  }
  return null;
}

/** The name as the chain prints it (or in capitals), as a whole word anywhere. */
function mentioned(lines: readonly string[]): ChainMatch | null {
  for (let i = 0; i < lines.length; i++) {
    for (const chain of KNOWN_CHAINS) {
      for (const form of [chain.name, chain.name.toUpperCase()]) {
        const at = lines[i]!.indexOf(form);
        const before = lines[i]![at - 1];
        if (at >= 0 && form.length >= 4 && !isLetter(before) && before !== '.' && !isLetter(lines[i]![at + form.length])) {
          return { chain, line: i, where: 'mention' };
        }
      }
    }
  }
  return null;
}

/** A known chain the receipt names: in its header first, then by its web address, then anywhere. */
export function findChain(lines: readonly string[]): ChainMatch | null {
  return inHeader(lines) ?? byDomain(lines) ?? mentioned(lines);
}
