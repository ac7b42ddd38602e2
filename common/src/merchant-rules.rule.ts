import { z } from 'zod';
import { uniqueTags } from './categories.rules.js';
import { safeText } from './control-characters.rule.js';
import { categorize } from './extraction/category.rule.js';
import { editDistance } from './extraction/edit-distance.js';
import { itemWords } from './extraction/items.rule.js';
import type { ReceiptRecord } from './receipt.schema.js';

/**
 * Rules a user's corrections teach (per user): `merchant` renames a merchant as the extraction
 * read it to the name the user gave it; `category` files a merchant's receipts under the
 * user's category (a built-in one or their own); `tags` gives them the user's tags (the value
 * lists them: `ruleTags`). The spec's keyword categories stay the fallback for merchants without one.
 */
export const MERCHANT_RULE_KINDS = ['merchant', 'category', 'tags'] as const;
export type MerchantRuleKind = (typeof MERCHANT_RULE_KINDS)[number];

export interface MerchantRule {
  kind: MerchantRuleKind;
  /** The merchant text matched, as the user saw it. */
  match: string;
  /** `merchantKey(match)`. */
  matchKey: string;
  value: string;
}

/** A rule as the account page lists it (GET /api/user/rules). */
export const merchantRuleViewSchema = z.object({
  id: z.uuid(),
  kind: z.enum(MERCHANT_RULE_KINDS),
  match: z.string(),
  value: z.string(),
  updatedAt: z.string(),
});
export type MerchantRuleView = z.infer<typeof merchantRuleViewSchema>;

/** GET /api/user/rules: the user's rules, as the account page lists them. */
export const merchantRuleListSchema = z.object({ rules: z.array(merchantRuleViewSchema) });
export type MerchantRuleList = z.infer<typeof merchantRuleListSchema>;

/** PATCH /api/user/rules/:id: the new name, or the new category (checked against the rule's kind). */
export const merchantRulePatchSchema = z.object({
  value: safeText().trim().min(1, 'The value is empty').max(200, 'The value is longer than 200 characters'),
});
export type MerchantRulePatch = z.infer<typeof merchantRulePatchSchema>;

/** The most rules one user keeps: the oldest are forgotten past it. */
export const MERCHANT_RULES_MAX = 1000;

/** Legal forms a receipt prints after the name one day and leaves out the next. */
const LEGAL_FORMS = new Set(['sdn', 'bhd', 'sb', 'gmbh', 'ag', 'kg', 'ltd', 'limited', 'inc', 'llc', 'co', 'corp', 'plc', 'pty', 'sa', 'sarl', 'srl', 'spa', 'bv', 'nv', 'kk']);

/** Characters OCR takes for one another, folded to one of each pair so a slip either way keys the same. */
const CONFUSABLE: Readonly<Record<string, string>> = { '0': 'o', d: 'o', q: 'o', '1': 'i', l: 'i', '5': 's', '8': 'b', '6': 'g', '2': 'z', '7': 't' };
const fold = (word: string) => [...word].map((c) => CONFUSABLE[c] ?? c).join('');
const FOLDED_LEGAL_FORMS = new Set([...LEGAL_FORMS].map(fold));

/**
 * The key a merchant is matched by: its letters and digits, lower-cased, accents dropped,
 * without a trailing legal form (`SDN BHD`, `GmbH`, `Ltd`, …), and with the letters OCR confuses
 * (0/O, 1/l/I, 5/S, 8/B, …) folded together, so "MR. K.L.Y. (M) SDN BHD" = "MR.KLY (M)" and
 * "5HELL" = "SHELL".
 */
export function merchantKey(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(fold);
  while (words.length > 1 && FOLDED_LEGAL_FORMS.has(words.at(-1)!)) words.pop();
  return words.join('');
}

/** Keys shorter than this match only exactly: a letter off in a short name is another name. */
const FUZZY_MIN_LENGTH = 6;

/**
 * The user's rule of a kind for a merchant: the one with the same key, else the nearest within
 * one OCR slip per 8 characters (a letter misread, dropped or doubled).
 */
export function findRule<R extends Pick<MerchantRule, 'kind' | 'matchKey'>>(rules: readonly R[], kind: MerchantRuleKind, merchant: string | undefined): R | undefined {
  const key = merchant ? merchantKey(merchant) : '';
  if (!key) return undefined;
  let nearest: R | undefined;
  let best = Infinity;
  for (const rule of rules) {
    if (rule.kind !== kind) continue;
    if (rule.matchKey === key) return rule;
    if (key.length < FUZZY_MIN_LENGTH || rule.matchKey.length < FUZZY_MIN_LENGTH) continue;
    const allowed = Math.floor(Math.max(key.length, rule.matchKey.length) / 8);
    if (allowed === 0 || Math.abs(key.length - rule.matchKey.length) > allowed) continue;
    const distance = editDistance(key, rule.matchKey, allowed);
    if (distance <= allowed && distance < best) {
      best = distance;
      nearest = rule;
    }
  }
  return nearest;
}

/**
 * A freshly extracted receipt with the user's rules applied: the merchant renamed, then the
 * category of the (renamed) merchant; without a category rule, a renamed merchant is given the
 * spec's keyword category of its new name when that finds one. `merchantRead` is what the
 * extraction read.
 */
export function applyMerchantRules(
  receipt: ReceiptRecord,
  rules: readonly MerchantRule[],
): { receipt: ReceiptRecord; merchantRead: string | undefined; applied: MerchantRule[] } {
  const merchantRead = receipt.merchantName;
  const applied: MerchantRule[] = [];
  let next = receipt;
  const rename = findRule(rules, 'merchant', merchantRead);
  if (rename) {
    next = { ...next, merchantName: rename.value };
    applied.push(rename);
  }
  const file = findRule(rules, 'category', next.merchantName);
  if (file) {
    next = { ...next, category: file.value };
    applied.push(file);
  } else if (rename) {
    const byName = categorize(rename.value, itemWords(next.items));
    if (byName !== 'other') next = { ...next, category: byName };
  }
  const tag = findRule(rules, 'tags', next.merchantName);
  if (tag && ruleTags(tag.value).length > 0) {
    next = { ...next, tags: ruleTags(tag.value) };
    applied.push(tag);
  }
  return { receipt: next, merchantRead, applied };
}

/**
 * What a correction teaches. A new merchant name: the merchant as read (before any rule) is
 * that name from now on. A new category: the merchant (as corrected) is filed under it. A
 * correction back to what was read teaches that no renaming is wanted (value equal to match).
 */
export function learnedRules(
  before: { merchantRead?: string | null; merchantName?: string | null },
  after: { merchantName?: string | null; category: string; tags?: readonly string[] },
  changed: { merchantName?: unknown; category?: unknown; tags?: unknown },
): Array<Pick<MerchantRule, 'kind' | 'match' | 'value'>> {
  const learned: Array<Pick<MerchantRule, 'kind' | 'match' | 'value'>> = [];
  const read = (before.merchantRead ?? before.merchantName)?.trim();
  const name = after.merchantName?.trim();
  if (changed.merchantName && read && name && merchantKey(read)) learned.push({ kind: 'merchant', match: read, value: name });
  if (changed.category && name && merchantKey(name)) learned.push({ kind: 'category', match: name, value: after.category });
  // Tags taken off teach nothing: the merchant's next receipts simply get none from this one.
  if (changed.tags && name && merchantKey(name) && after.tags?.length) learned.push({ kind: 'tags', match: name, value: after.tags.join(', ') });
  return learned;
}

/** The tags a `tags` rule's value lists (tags hold no comma). */
export function ruleTags(value: string): string[] {
  return uniqueTags(value.split(',').map((tag) => tag.trim()).filter(Boolean));
}
