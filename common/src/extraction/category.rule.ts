import type { Category } from '../receipt.schema.js';

const KEYWORDS: Array<[Category, RegExp]> = [
  ['gas', /\b(petrol|petronas|shell|caltex|esso|chevron|exxon|mobil|bp|texaco|fuel|gas station|diesel|unleaded|ron ?9[57])\b/i],
  ['pharmacy', /\b(pharmacy|farmasi|chemist|drug ?store|guardian|watsons|cvs|walgreens|boots|medical|clinic|apotek)\b/i],
  ['restaurant', /\b(restoran|restaurant|cafe|café|coffee|kopitiam|bistro|bar|grill|pizza|burger|kitchen|food|dine|eatery|mamak|nasi|mee|noodle|sushi|bakery|bakeries|confectionery|kfc|mcdonald'?s|domino'?s|starbucks|seafood)\b/i],
  ['grocery', /\b(grocer(y|ies)|supermarket|hypermarket|mart|market|aeon|tesco|giant|mydin|lotus|walmart|kroger|aldi|lidl|fresh|sayur)\b/i],
  ['retail', /\b(hardware|stationery|book|florist|handicraft|electrical|supplies|trading|store|shop|kedai|boutique|mall|ikea|d\.?i\.?y|printing|print)\b/i],
];

const ITEM_KEYWORDS: Array<[Category, RegExp]> = [
  ['gas', /\b(petrol|diesel|unleaded|fuel|ron ?9[57])\b/i],
  ['pharmacy', /\b(tablet|capsule|syrup|paracetamol|panadol|vitamin|plaster|mg)\b/i],
  ['restaurant', /\b(rice|nasi|mee|noodle|chicken|ayam|coffee|tea|teh|kopi|latte|burger|pizza|meal|soup|drink|juice)\b/i],
  ['grocery', /\b(milk|bread|egg|eggs|sugar|flour|vegetable|fruit|beras|minyak|detergent)\b/i],
  ['retail', /\b(pen|paper|file|battery|screw|nail|paint|cable|tool|tape|rod|sheet|bolt|glue)\b/i],
];

/** Spec §5: merchant keywords first, then item words, else other. */
export function categorize(merchant: string | undefined, itemText: string): Category {
  for (const [category, re] of KEYWORDS) if (merchant && re.test(merchant)) return category;
  for (const [category, re] of ITEM_KEYWORDS) if (re.test(itemText)) return category;
  return 'other';
}
