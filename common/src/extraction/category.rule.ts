import type { Category } from '../receipt.schema.js';
import { BRAND_CATEGORIES, CHAIN_CATEGORIES } from './known-chains.table.js';
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

const CATEGORY_OF_CHAIN = new Map(Object.entries(CHAIN_CATEGORIES).flatMap(([category, names]) => names.map((name) => [name, category as Category])));

/** Spec §5: merchant keywords first, then item words, else other; a known chain that names the merchant first of all. */
export function categorize(merchant: string | undefined, itemText: string, chain?: string): Category {
  const ofChain = chain === undefined ? undefined : CATEGORY_OF_CHAIN.get(chain);
  if (ofChain) return ofChain;
  for (const [category, re] of NAME_PATTERNS) if (merchant && re.test(merchant)) return category;
  for (const [category, re] of ITEM_PATTERNS) if (re.test(itemText)) return category;
  return 'other';
}
