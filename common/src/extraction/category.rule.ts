import type { Category } from '../receipt.schema.js';
import { BRAND_CATEGORIES } from './known-chains.table.js';
import { KEYWORD_TABLES } from './keywords/index.js';

/** The narrower trades are tried first: a petrol station's mart is a petrol station, a pharmacy's shop a pharmacy. */
const PRECEDENCE: readonly Category[] = ['gas', 'pharmacy', 'restaurant', 'grocery', 'retail'];

/** One pattern per category, in the order they are tried: the first category that matches wins. */
function categoryPatterns(words: (category: Category) => string[]): Array<[Category, RegExp]> {
  return PRECEDENCE.filter((c) => words(c).length > 0).map((c) => [c, new RegExp(`\\b(?:${words(c).join('|')})\\b`, 'i')]);
}

// Every language's words (and the brands, for names): the per-language keyword tables own them.
const NAME_PATTERNS = categoryPatterns((c) => [...(BRAND_CATEGORIES[c] ?? []), ...KEYWORD_TABLES.flatMap((t) => t.categoryNames[c] ?? [])]);
const ITEM_PATTERNS = categoryPatterns((c) => KEYWORD_TABLES.flatMap((t) => t.categoryItems[c] ?? []));

/** Spec §5: merchant keywords first, then item words, else other. */
export function categorize(merchant: string | undefined, itemText: string): Category {
  for (const [category, re] of NAME_PATTERNS) if (merchant && re.test(merchant)) return category;
  for (const [category, re] of ITEM_PATTERNS) if (re.test(itemText)) return category;
  return 'other';
}
