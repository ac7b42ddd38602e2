import { amountsIn } from './money.rule.js';

export interface TextTotals {
  total: number | null;
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  discount: number | null;
}

/** Line kinds, most specific first: a line is what its first matching pattern says. */
/** "total" as OCR reads it: tota1, tolal, totai, tatal, t0tal. */
const TOTAL = 't[o0a][t1l][a4o][l1i]';
const re = (source: string) => new RegExp(source, 'i');

/** Line kinds, most specific first: a line is what its first matching pattern says. */
const KINDS: Array<{ kind: string; re: RegExp }> = [
  { kind: 'ignore', re: re(`${TOTAL}\\s*(qty|quantity|items?|savings?|discounts?\\b|points?|tax\\s*code)|item\\s*count|no\\.?\\s*of\\s*items|qty\\s*${TOTAL}|0%\\s*supplies|excl(\\.|uding|usive)?\\b[^\\n]*gst|gst\\s*summary|tax\\s*summary`) },
  { kind: 'strong', re: re(`grand\\s*${TOTAL}|${TOTAL}\\s*payable|net+\\s*${TOTAL}|${TOTAL}\\s*net+|${TOTAL}\\s*after\\s*(adj|round)|rounded\\s*${TOTAL}|${TOTAL}\\s*rounded|amount\\s*due|${TOTAL}\\s*due|balance\\s*due|amount\\s*payable|${TOTAL}\\s*amount|jumlah`) },
  { kind: 'inclusive', re: re(`${TOTAL}[^\\n]*incl|${TOTAL}\\s*sales|${TOTAL}\\s*\\(?rm\\)?\\s*[:\\d]|^\\s*${TOTAL}\\s*\\(rm\\)`) },
  { kind: 'subtotal', re: re(`sub[\\s-]*${TOTAL}|${TOTAL}\\s*before|amount\\s*before`) },
  { kind: 'discount', re: /disc(ount)?|less\b|potongan|voucher|coupon/i },
  { kind: 'tip', re: /\btip\b|gratuity/i },
  { kind: 'rounding', re: /round(ing)?\s*(adj)?/i },
  { kind: 'change', re: /chan?ge|baki|balance(?!\s*due)/i },
  { kind: 'paid', re: /\bcash\b|tunai|paid|payment|tendered|received|visa|master\s*card|credit|debit|card/i },
  { kind: 'tax', re: /\bgst\b|\bsst\b|\bvat\b|\btax\b|service\s*tax|cukai/i },
  { kind: 'total', re: re(`\\b${TOTAL}\\b`) },
];

const WEIGHT: Record<string, number> = { strong: 4, inclusive: 3, total: 2 };
/** Paid − change: strong evidence, but a printed total outranks it (receipts round cash payments). */
const DERIVED_WEIGHT = 2.5;
/** A total printed after the rounding line is the rounded, final one. */
const AFTER_ROUNDING_BONUS = 1.5;

function kindOf(line: string): string | null {
  for (const { kind, re } of KINDS) if (re.test(line)) return kind;
  return null;
}

/**
 * Amount that belongs to line `i`: the last one on it, or, for a bare label ("TOTAL" with no
 * digits at all — a garbled amount is not borrowed from elsewhere), the one on the next line.
 */
function amountFor(lines: readonly string[], i: number): number | null {
  const own = amountsIn(lines[i]!);
  if (own.length > 0) return own[own.length - 1]!;
  if (/\d/.test(lines[i]!)) return null;
  const next = lines[i + 1];
  if (next !== undefined && kindOf(next) === null) {
    const following = amountsIn(next);
    if (following.length === 1) return following[0]!;
  }
  return null;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Money fields from plain OCR text. The total is voted on: every line that states a total
 * votes for its amount with the weight of its wording, and "paid − change" votes too, so one
 * garbled line does not decide the result.
 */
export function findTotals(lines: readonly string[]): TextTotals {
  const votes = new Map<number, number>();
  // Only a positive amount can be a total (a negative one is a refund or an adjustment).
  const vote = (amount: number, weight: number) => amount > 0 && votes.set(amount, (votes.get(amount) ?? 0) + weight);
  const first: Record<string, number> = {};
  const paid: number[] = [];
  let change: number | null = null;
  let roundingSeen = false;

  lines.forEach((line, i) => {
    const kind = kindOf(line);
    if (!kind || kind === 'ignore') return;
    // A row with several amounts under a plain "total" is a summary table, not the total.
    if (kind === 'total' && amountsIn(line).length > 1) return;
    const amount = amountFor(lines, i);
    if (amount === null) return;
    first[kind] ??= amount;
    if (kind in WEIGHT) vote(amount, WEIGHT[kind]! + (roundingSeen ? AFTER_ROUNDING_BONUS : 0));
    if (kind === 'rounding') roundingSeen = true;
    if (kind === 'paid' && amount > 0) paid.push(amount);
    if (kind === 'change' && change === null) change = amount;
  });

  // Each payment line may state the total itself; the largest one is the cash handed over.
  for (const amount of paid) vote(amount, 1);
  const changeAmount = change as number | null;
  const tendered = paid.length > 0 ? Math.max(...paid) : null;
  if (tendered !== null && changeAmount !== null && tendered >= changeAmount) {
    vote(Math.round((tendered - changeAmount) * 100) / 100, DERIVED_WEIGHT);
  }
  const subtotal = first.subtotal ?? null;
  const discount = first.discount ?? null;
  if (subtotal !== null && discount !== null && subtotal > discount) vote(Math.round((subtotal - discount) * 100) / 100, 1);

  let total: number | null = null;
  let best = 0;
  for (const [amount, weight] of votes) {
    // Ties go to the larger amount: a total includes what came before it.
    if (weight > best || (weight === best && total !== null && amount > total)) {
      total = amount;
      best = weight;
    }
  }
  // With no total printed, the subtotal is the best the receipt says.
  if (total === null && subtotal !== null) total = subtotal;
  const tax = first.tax ?? null;
  return {
    total,
    subtotal: subtotal !== null && total !== null && subtotal > total + 0.005 && discount === null ? null : subtotal,
    tax: tax !== null && total !== null && (tax > total || near(tax, total)) ? null : tax,
    tip: first.tip ?? null,
    discount: discount !== null && total !== null && discount > total ? null : discount,
  };
}
