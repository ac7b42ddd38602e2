import { DE_KEYWORDS } from './de.keywords.js';
import { EN_KEYWORDS } from './en.keywords.js';
import { ES_KEYWORDS } from './es.keywords.js';
import { FIL_KEYWORDS } from './fil.keywords.js';
import { FR_KEYWORDS } from './fr.keywords.js';
import { IT_KEYWORDS } from './it.keywords.js';
import { JA_KEYWORDS } from './ja.keywords.js';
import { MS_KEYWORDS } from './ms.keywords.js';
import type { KeywordTable } from './keyword-table.js';
import { NL_KEYWORDS } from './nl.keywords.js';
import { PT_KEYWORDS } from './pt.keywords.js';
import { RO_KEYWORDS } from './ro.keywords.js';

export type { KeywordTable } from './keyword-table.js';
export { OCR_TOTAL } from './en.keywords.js';

/** Every language the rules read; adding one is adding its table here. */
export const KEYWORD_TABLES: readonly KeywordTable[] = [
  EN_KEYWORDS, DE_KEYWORDS, FR_KEYWORDS, ES_KEYWORDS, PT_KEYWORDS, NL_KEYWORDS, IT_KEYWORDS, JA_KEYWORDS, MS_KEYWORDS, FIL_KEYWORDS, RO_KEYWORDS,
];

export type KeywordKind = Exclude<keyof KeywordTable, 'language' | 'noWordBoundaries' | 'months' | 'ocrModel' | 'categoryNames' | 'categoryItems' | 'summaryWords'>;

/** Every language's sums labels as plain words (keyword-table.ts `summaryWords`). */
export const SUMMARY_WORDS: readonly string[] = KEYWORD_TABLES.flatMap((t) => t.summaryWords);

/** Each OCR model's marker words as one pattern (global: its matches are counted). */
export const OCR_MARKERS: ReadonlyArray<{ model: string; pattern: RegExp }> = KEYWORD_TABLES.filter((t) => t.ocrModel && t.ocrMarkers.length > 0).map((t) => ({
  model: t.ocrModel!,
  pattern: new RegExp(`\\b(?:${t.ocrMarkers.join('|')})\\b`, 'gi'),
}));

/** The regular-expression source matching any language's word for `kind`, whole words where words are spaced. */
export function keywordSource(kind: KeywordKind, tables: readonly KeywordTable[] = KEYWORD_TABLES): string {
  const spaced = tables.filter((t) => !t.noWordBoundaries).flatMap((t) => t[kind]);
  const unspaced = tables.filter((t) => t.noWordBoundaries).flatMap((t) => t[kind]);
  const parts: string[] = [];
  if (spaced.length > 0) parts.push(`(?<![\\p{L}])(?:${spaced.join('|')})(?![\\p{L}])`);
  if (unspaced.length > 0) parts.push(`(?:${unspaced.join('|')})`);
  return parts.length > 0 ? parts.join('|') : '(?!)';
}

/** Every spaced language's entries for `kind` as one alternation, without word boundaries: for patterns that place them themselves. */
export function keywordAlternatives(kind: KeywordKind): string {
  return KEYWORD_TABLES.filter((t) => !t.noWordBoundaries).flatMap((t) => t[kind]).join('|') || '(?!)';
}

const cache = new Map<KeywordKind, RegExp>();

/** A non-global (stateless) pattern for `kind` in every language. */
export function keywordPattern(kind: KeywordKind): RegExp {
  let re = cache.get(kind);
  if (!re) {
    re = new RegExp(keywordSource(kind), 'iu');
    cache.set(kind, re);
  }
  return re;
}

/** Whether `line` says `kind` in any language. */
export function says(kind: KeywordKind, line: string): boolean {
  return keywordPattern(kind).test(line);
}

/** Month names of every language → month number (lower case, accents as printed). */
export const MONTH_NAMES: ReadonlyMap<string, number> = new Map(
  KEYWORD_TABLES.flatMap((t) => Object.entries(t.months)).sort((a, b) => b[0].length - a[0].length),
);
