import { keywordSource, OCR_TOTAL, type KeywordKind } from './keywords/index.js';
import { amountsIn } from './money.rule.js';
import { plausibleTaxRate } from './tax-rate.rule.js';
import { TOTAL_VOTE_WEIGHTS } from './total-vote.weights.js';
import { VOTE_FEATURES, type VoteFeature, type TotalVoteWeights } from './total-vote.features.js';

export { HAND_SET_VOTE_WEIGHTS, FITTED_VOTE_WEIGHTS, TOTAL_VOTE_WEIGHTS } from './total-vote.weights.js';

export interface TextTotals {
  total: number | null;
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  discount: number | null;
}

/** Where each money field was read: the index of its line in the lines given. */
export type TotalsSources = Partial<Record<keyof TextTotals, number>>;

export type AmountReader = (line: string) => number[];

/**
 * What voted for an amount: a line labelling it a total (`strong`, `inclusive`, `total`,
 * `rounding`), payments (`payment`: a card or cash line; `change`: cash handed over less the
 * change), the gross column of a tax table (`table`), subtotal less discount (`net`), the printed
 * fields adding up to it (`sum`).
 */
export type TotalSupport = 'strong' | 'inclusive' | 'total' | 'rounding' | 'payment' | 'change' | 'table' | 'net' | 'sum';

/** How the total was decided: what voted for it. */
export interface TotalEvidence {
  support: TotalSupport[];
  /** No total was printed: the subtotal stands in for it. */
  fromSubtotal: boolean;
  /** A tip or total label printed with no amount (a card slip left for the pen). */
  blankLabel: boolean;
}

const words = (kind: KeywordKind) => keywordSource(kind);
const re = (source: string) => new RegExp(source, 'iu');

/**
 * Line kinds, most specific first: a line is what its first matching pattern says. The words
 * come from every language's keyword table; the English OCR misspellings of "total" stay here.
 */
const KINDS: Array<{ kind: string; re: RegExp }> = [
  {
    kind: 'ignore',
    re: re(
      `${OCR_TOTAL}\\s*(savings?|discounts?\\b|points?|tax\\s*code)|0%\\s*supplies|excl(\\.|uding|usive)?\\b[^\\n]*gst|gst\\s*summary|tax\\s*summary|${words('count')}|${words('taxBase')}`,
    ),
  },
  { kind: 'subtotal', re: re(words('subtotal')) },
  // "Total incl. VAT 14.49" states the total; "incl. VAT 19% 2.08" states the tax in it.
  { kind: 'inclusive', re: re(`(${OCR_TOTAL}|${words('total')})[^\\n]*(${words('taxIncluded')})|${OCR_TOTAL}\\s*sales|${OCR_TOTAL}\\s*\\(?rm\\)?\\s*[:\\d]`) },
  { kind: 'strong', re: re(words('grandTotal')) },
  // A suggested tip was not paid ("Gratuity guide 15% 4.64"); "Total with tip" repeats the total with a tip that may not be.
  { kind: 'ignore', re: re(`${words('suggestion')}|(${words('total')})[^\\n]*(${words('tip')})`) },
  { kind: 'tip', re: re(words('tip')) },
  { kind: 'discount', re: re(words('discount')) },
  { kind: 'rounding', re: re(words('rounding')) },
  { kind: 'change', re: re(words('change')) },
  { kind: 'cash', re: re(words('cash')) },
  { kind: 'card', re: re(words('card')) },
  { kind: 'tax', re: re(words('tax')) },
  { kind: 'total', re: re(words('total')) },
];

/** Line kinds that state a total, and so vote for their amount. */
const TOTAL_KINDS = new Set(['strong', 'inclusive', 'total']);
/** The largest rounding adjustment any till prints. */
const MAX_ROUNDING = 1;
/** Cash payments are rounded to the coin (5 cents in Malaysia, Australia, Canada, Switzerland …). */
const CASH_ROUNDING = 0.05;


/** A candidate for the total and what voted for it. */
export interface TotalCandidate {
  amount: number;
  line: number;
  features: Partial<Record<VoteFeature, number>>;
}

const SUPPORT_OF: Partial<Record<VoteFeature, TotalSupport>> = {
  strong: 'strong', inclusive: 'inclusive', total: 'total', rounding: 'rounding', change: 'change', payment: 'payment', split: 'payment', table: 'table', net: 'net', sum: 'sum',
};

/** A candidate's weight under a chooser's weights. */
export const voteWeight = (c: Pick<TotalCandidate, 'features'>, weights: TotalVoteWeights) =>
  Object.entries(c.features).reduce((sum, [f, n]) => sum + weights[f as VoteFeature] * n!, 0);

/** A field's label is short: a sentence that mentions "payment" or "balance" is not one. */
const MAX_LABEL_WORDS = 6;
/** Payment and change words label a line only near its start ("View your balance" does not). */
const LEADING_KINDS = new Set(['change', 'cash', 'card']);
const LEADING_WORDS = 3;

/** What a line states (total, subtotal, tax, tip, discount, rounding, change, cash, card, ignore), or null. */
export function lineKind(line: string): string | null {
  const kind = kindOf(line);
  if (kind !== null) return kind;
  // Letters OCR split from their word ("Tota l", "CREDI T", "T ota l T ax"): the label joined again.
  const joined = joinSplitLetters(line);
  return joined === line ? null : kindOf(joined);
}

/**
 * A lone letter between letters joins the word after it when that goes on in lower case ("T ota"
 * → "Tota"), else the word before it ("Tota l" → "Total"). Letters beside digits or symbols (a
 * tax code after an amount, "2.99 T") stay.
 */
export function joinSplitLetters(line: string): string {
  const words = line.split(' ');
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const prev = out[out.length - 1];
    if (/^\p{L}$/u.test(w) && next !== undefined && /^\p{Ll}+$/u.test(next)) {
      words[i + 1] = w + next;
      continue;
    }
    if (/^\p{L}$/u.test(w) && prev !== undefined && /^\p{L}{2,}$/u.test(prev)) {
      out[out.length - 1] = prev + w;
      continue;
    }
    out.push(w);
  }
  return out.join(' ');
}

function kindOf(line: string): string | null {
  const labelWords = line
    .replace(/[\d.,:]+/g, ' ')
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w));
  if (labelWords.length > MAX_LABEL_WORDS) return null;
  for (const { kind, re } of KINDS) {
    if (!re.test(line)) continue;
    if (LEADING_KINDS.has(kind) && !re.test(labelWords.slice(0, LEADING_WORDS).join(' '))) continue;
    return kind;
  }
  return null;
}

/**
 * Amount that belongs to line `i`: the last one on it, or, for a bare label ("TOTAL" with no
 * digits at all — a garbled amount is not borrowed from elsewhere), the one on the next line.
 */
function amountFor(lines: readonly string[], i: number, read: AmountReader): { amount: number; line: number } | null {
  const own = read(withoutRates(lines[i]!));
  // "1.00-" is how tills print a deduction.
  if (own.length > 0) return { amount: TRAILING_MINUS.test(lines[i]!) ? -Math.abs(own[own.length - 1]!) : own[own.length - 1]!, line: i };
  // A stray digit beside the label ("4 Total Amount Paid") is OCR noise, not a garbled amount.
  if (/\d{2}/.test(lines[i]!)) return null;
  const next = lines[i + 1];
  // A line printing a rate ("18% 15.11" under "Percentage Tip") is a row of a table, not the label's amount.
  if (next !== undefined && lineKind(next) === null && !/\d\s*%/.test(next)) {
    const following = read(next);
    if (following.length === 1) return { amount: following[0]!, line: i + 1 };
  }
  return null;
}

const TRAILING_MINUS = /\d\s?-\s*[A-Z]?\s*$/;

/**
 * Cents printed alone, as US tills print an amount under a dollar ("TAX .26", "TOTAL TAX .00").
 * Read on tax lines only: on a total line it is more often a total whose dollars OCR lost.
 */
const CENTS_ALONE = /(?<![\p{L}\p{N}.,:])\.(\d{2})(?![\d.,:])/u;
function centsAlone(line: string, i: number): { amount: number; line: number } | null {
  const m = CENTS_ALONE.exec(line);
  return m ? { amount: Number(`0.${m[1]}`), line: i } : null;
}

/** "19,0 %" and "7.00%" are tax rates, not money. */
const withoutRates = (line: string) => line.replace(/\d+([.,]\d+)?\s*%/g, ' ');

const round2 = (n: number) => Math.round(n * 100) / 100;
const near = (a: number, b: number) => Math.abs(a - b) < 0.005;
/** A fraction as the percent printed, to the three places a rate is printed with ("8.875 %"). */
const asPercent = (fraction: number) => Math.round(fraction * 100_000) / 1000;

/** One rate of a receipt's tax: the rate in percent (null where the receipt does not print it), the net, the tax on it and the gross. */
export interface TaxRateRow {
  rate: number | null;
  net: number;
  tax: number;
  gross: number;
}

/** A tax rate table's tax, its gross sum (what the receipt totals), its first line and its rows per rate. */
export interface RateTable {
  tax: number;
  gross: number;
  line: number;
  /** Each rate's row as printed; empty where they do not add up to the table's tax. */
  rows: TaxRateRow[];
}

/** Rows a rate table may have under its header (rates, coupons, the total row). */
const TABLE_ROWS = 8;

const TAX_WORD = re(`${words('tax')}|${words('subtotal')}`);
const TOTAL_WORD = re(`${words('total')}|${words('grandTotal')}`);

/** Each row is rounded to the cent on its own: net + tax may miss the gross by one cent. */
const ROW_ROUNDING = 0.0105;

/** Net, tax and gross in any column order: two add up to the third, the smaller addend is the tax. */
function addingRow([a, b, c]: [number, number, number]): { tax: number; gross: number } | null {
  const adds = (x: number, y: number, z: number) => Math.abs(x + y - z) <= ROW_ROUNDING;
  const tax = adds(a, b, c) ? Math.min(a, b) : adds(b, c, a) ? Math.min(b, c) : adds(a, c, b) ? Math.min(a, c) : null;
  return tax === null ? null : { tax, gross: Math.max(a, b, c) };
}

/** A line's tax rate ("19.6%", "@8.000%", "7 %") as a fraction, or null. */
function rateOf(line: string): number | null {
  const rate = /(\d{1,2}(?:[.,]\d{1,3})?)\s*%/.exec(line);
  return rate ? Number(rate[1]!.replace(',', '.')) / 100 : null;
}

/** A rate and two amounts ("B 20 % 3.84 0.64"): the tax is the rate's share of the gross, or of the net. */
function rateRow([a, b]: [number, number], r: number | null): { tax: number; gross: number } | null {
  if (r === null) return null;
  if (Math.abs((a * r) / (1 + r) - b) <= ROW_ROUNDING) return { tax: b, gross: a };
  if (Math.abs(a * r - b) <= ROW_ROUNDING) return { tax: b, gross: round2(a + b) };
  return null;
}

/** The gross (or net) and its tax among three amounts, in whatever column order, that the printed rate ties together. */
function rateRowOfPair(amounts: readonly number[], r: number | null): { tax: number; gross: number } | null {
  if (r === null) return null;
  for (const base of amounts) for (const tax of amounts) if (tax < base) {
    const row = rateRow([base, tax], r);
    if (row) return row;
  }
  return null;
}

/**
 * The tax of a rate table (Netto / Steuer / Brutto, HT / TVA / TTC, Net / VAT / Gross): rows
 * with three amounts where two add up to the third, in whatever column order (or a rate and two
 * amounts, the tax being the rate's share), that print a rate or sit under a header naming the tax. The smaller addend is the tax; the table's own total
 * row wins over the sum of the rate rows.
 */
export function taxFromRateTable(lines: readonly string[], read: AmountReader = amountsIn): RateTable | null {
  let sum = 0;
  let gross = 0;
  let first = -1;
  let header = -Infinity;
  let totalRow: Omit<RateTable, 'rows'> | null = null;
  const rows: TaxRateRow[] = [];
  lines.forEach((line, i) => {
    let amounts = read(withoutRates(line));
    if (amounts.length === 0 && TAX_WORD.test(line)) header = i;
    // A rate column printed without its % ("20.00 A 1.50 0.30 1.80") comes first.
    const rateColumn = amounts.length === 4 && amounts[0]! < 30 ? amounts[0]! : null;
    if (amounts.length === 4) amounts = amounts.slice(1);
    if (amounts.length !== 3 && amounts.length !== 2) return;
    const inTable = /%/.test(line) || TAX_WORD.test(line) || i - header <= TABLE_ROWS || first >= 0;
    if (!inTable) return;
    let row = amounts.length === 3 ? addingRow(amounts as [number, number, number]) : rateRowOfPair(amounts, rateOf(line));
    // Three amounts of which none adds two others: a rate without its % and the two it applies to ("5.50 21.10 1.10").
    const bareRate = row === null && amounts.length === 3 && amounts[0]! < 30;
    if (bareRate) row = rateRow([amounts[1]!, amounts[2]!], amounts[0]! / 100);
    // A printed rate and three amounts of which one is misread ("19 % 5,0B 3,18 19,90"): the two the rate ties together.
    if (row === null && amounts.length === 3) row = rateRowOfPair(amounts, rateOf(line));
    if (row === null || row.tax < 0) return;
    const printed = rateOf(line);
    const rate = printed !== null ? asPercent(printed) : bareRate ? amounts[0]! : rateColumn;
    const rateRowLine = /%/.test(line) || bareRate || (first < 0 && !TOTAL_WORD.test(line));
    // A zero-rated row adds no tax but is a rate of its own (the net sold free of tax), where it says so.
    if (row.tax === 0) {
      if (rate === 0) rows.push({ rate, net: row.gross, tax: 0, gross: row.gross });
      return;
    }
    if (rateRowLine) {
      if (first < 0) first = i;
      sum += row.tax;
      gross += row.gross;
      rows.push({ rate, net: round2(row.gross - row.tax), tax: row.tax, gross: row.gross });
      return;
    }
    totalRow ??= { ...row, line: i };
  });
  const table = totalRow ?? (first >= 0 ? { tax: round2(sum), gross: round2(gross), line: first } : null);
  if (table === null) return null;
  return { ...table, rows: near(round2(sum), table.tax) ? rows : [] };
}

/**
 * Money fields from plain OCR text. The total is voted on: every line that states a total
 * votes for its amount with the weight of its wording, "cash handed over − change" and
 * "subtotal + tax + tip − discount" vote too, so one garbled line does not decide. Cash handed
 * over is not a total when change was given. `contradicted`: cash − change says another amount.
 */
export function findTotalsWithSources(
  lines: readonly string[],
  read: AmountReader = amountsIn,
  currency?: string,
  weights: TotalVoteWeights = TOTAL_VOTE_WEIGHTS,
): { totals: TextTotals; sources: TotalsSources; contradicted: boolean; taxLabelLine: number; evidence: TotalEvidence; candidates: TotalCandidate[]; rates: TaxRateRow[] } {
  const votes = new Map<number, TotalCandidate>();
  // Only a positive amount can be a total (a negative one is a refund or an adjustment).
  const vote = (amount: number, line: number, ...why: VoteFeature[]) => {
    if (amount <= 0) return;
    const candidate = votes.get(amount) ?? { amount, line, features: {} };
    for (const f of why) candidate.features[f] = (candidate.features[f] ?? 0) + 1;
    votes.set(amount, candidate);
  };
  let blankLabel = false;
  let lastTotal: { amount: number; line: number } | null = null;
  const first: Record<string, { amount: number; line: number }> = {};
  const cash: Array<{ amount: number; line: number }> = [];
  const cards: Array<{ amount: number; line: number }> = [];
  let change: number | null = null;
  const taxLines: TaxLine[] = [];
  const subtotals: Array<{ amount: number; line: number }> = [];
  let roundingSeen = false;
  let sumSeen = false;
  let derived: number | null = null;

  const kinds = lines.map(lineKind);
  /** The priced line above is an item (or another deduction), not a sum ("Total Sales (Excluding GST)" is one). */
  const underItem = (i: number) => {
    const above = lines.findLastIndex((l, j) => j < i && read(l).length > 0);
    return above >= 0 && (kinds[above] === null || kinds[above] === 'discount');
  };
  lines.forEach((line, i) => {
    const kind = kinds[i];
    if (!kind || kind === 'ignore') return;
    // A row with several amounts under a plain "total" (or a payment word) is a summary or tip-suggestion table, not the total.
    if ((kind === 'total' || kind === 'tax' || kind === 'card') && read(line).length > 2) return;
    if (kind === 'total' && read(line).length > 1 && amountsIn(line).length > 1) return;
    const found = amountFor(lines, i, read) ?? (kind === 'tax' ? centsAlone(line, i) : null);
    // A tip or total label with nothing legible beside it, under the priced lines: left to be written in by hand.
    if (found === null && (kind === 'tip' || TOTAL_KINDS.has(kind)) && !/\d/.test(line)) blankLabel = true;
    if (found === null) return;
    // A deduction printed among the items (deposit return, coupon, an item's "SAVINGS 1.00") is in the items' sum, not a discount on the receipt's.
    if (kind === 'discount' && !sumSeen && (found.amount < 0 || underItem(i))) return;
    if (TOTAL_KINDS.has(kind) || kind === 'subtotal') sumSeen = true;
    first[kind] ??= found;
    if (kind === 'subtotal') subtotals.push(found);
    if (TOTAL_KINDS.has(kind)) vote(found.amount, found.line, kind as VoteFeature, ...(roundingSeen ? (['afterRounding'] as const) : []));
    // An adjustment is a coin at most; a larger amount on a rounding line is the rounded total.
    if (kind === 'rounding' && Math.abs(found.amount) > MAX_ROUNDING) vote(found.amount, found.line, 'rounding');
    // An adjustment under a total makes the rounded total, whether or not its own line was read ("Total 14.64", "Rounding 0.01");
    // one among the payment lines rounded the cash handed over, not the total.
    else if (kind === 'rounding' && found.amount !== 0 && lastTotal) vote(round2(lastTotal.amount + found.amount), found.line, 'rounding');
    if (TOTAL_KINDS.has(kind)) lastTotal = found;
    if (LEADING_KINDS.has(kind)) lastTotal = null;
    if (kind === 'rounding') roundingSeen = true;
    if (kind === 'cash' && found.amount > 0) cash.push(found);
    if (kind === 'card' && found.amount > 0) cards.push(found);
    // Change is never negative: a minus before it is OCR's ("CHANGE : J -9.55").
    if (kind === 'change' && change === null) change = Math.abs(found.amount);
    if (kind === 'tax') taxLines.push({ ...found, rate: /\d\s*%/.test(line), percent: rateOf(line), stated: /total|summe|gesamt|合計|計/i.test(line) });
  });
  // Lines printing a rate and one amount, whatever their words ("dont TVA (5.5%) 2.10" with "TVA" garbled):
  // the tax when the arithmetic says so (below).
  const rateLines: RateLine[] = [];
  lines.forEach((line, i) => {
    const kind = kinds[i];
    const rate = rateOf(line);
    if (rate === null || (kind !== null && kind !== 'tax' && kind !== 'ignore')) return;
    const amounts = read(withoutRates(line));
    if (amounts.length === 1 && amounts[0]! > 0) rateLines.push({ amount: amounts[0]!, line: i, rate });
  });

  const changeAmount = change as number | null;
  const payments = [...cash, ...cards];
  if (changeAmount !== null && changeAmount > 0) {
    // Change was given: the largest payment is what was handed over, and the difference is
    // the total; a smaller payment line ("Cash 71.00" above "Cash received 101.00") states it.
    const tendered = payments.reduce<{ amount: number; line: number } | null>((a, b) => (!a || b.amount > a.amount ? b : a), null);
    if (tendered && tendered.amount > changeAmount) {
      derived = round2(tendered.amount - changeAmount);
      vote(derived, tendered.line, 'change');
    }
    for (const p of payments) if (tendered && p.amount < tendered.amount) vote(p.amount, p.line, 'payment');
  } else {
    // Without change, a payment line states the total itself; payments of different amounts
    // (voucher + card) are parts of it and add up to it, if a printed total agrees.
    const distinct = [...new Set(payments.map((p) => p.amount))];
    const parts = round2(distinct.reduce((a, b) => a + b, 0));
    if (distinct.length > 1 && votes.has(parts)) vote(parts, payments[0]!.line, 'split');
    else if (distinct.length === 1) for (const p of payments) vote(p.amount, p.line, 'payment');
  }
  // A tax table's gross column adds up to the total.
  const table = taxFromRateTable(lines, read);
  if (table) vote(table.gross, table.line, 'table');

  // "Net Total 11.97", "Tax 1.06", "TOTAL 13.03": an amount that the tax printed under it makes into a later total is the subtotal.
  for (const c of [...votes.values()]) {
    const taxUnder = taxLines.find((t) => t.line > c.line && t.amount > 0 && [...votes.values()].some((o) => o.line > t.line && near(o.amount, round2(c.amount + t.amount))));
    if (!taxUnder) continue;
    votes.delete(c.amount);
    first.subtotal ??= { amount: c.amount, line: c.line };
  }
  // Several subtotals ("Kitchen Sub-Total", "Promo Sub-Total", "SUB TOTAL"): the one the tax makes into a printed total, else the first.
  const taxed = first.tax && subtotals.length > 1 ? subtotals.find((s) => votes.has(round2(s.amount + first.tax!.amount))) : undefined;
  if (taxed) first.subtotal = taxed;
  const subtotal = first.subtotal?.amount ?? null;
  const discount = first.discount ? Math.abs(first.discount.amount) : null;
  const tip = first.tip?.amount ?? null;
  const taxLine = first.tax ?? null;
  if (subtotal !== null && discount !== null && subtotal > discount) vote(round2(subtotal - discount), first.subtotal!.line, 'net');
  // A candidate the other printed fields add up to gains their agreement.
  if (subtotal !== null && taxLine !== null) {
    const sum = round2(subtotal + taxLine.amount + (tip ?? 0) - (discount ?? 0));
    const agreeing = votes.get(sum);
    if (agreeing) agreeing.features.sum = 1;
  }

  const candidates = [...votes.values()];
  const largest = Math.max(0, ...candidates.map((c) => c.amount));
  for (const c of candidates) if (c.amount === largest) c.features.largest = 1;
  let chosen: TotalCandidate | null = null;
  let best = -Infinity;
  for (const c of candidates) {
    const weight = voteWeight(c, weights);
    // Ties go to the larger amount: a total includes what came before it.
    if (weight > best || (weight === best && chosen !== null && c.amount > chosen.amount)) {
      chosen = c;
      best = weight;
    }
  }
  let total: number | null = chosen?.amount ?? null;
  const support = new Set(Object.keys(chosen?.features ?? {}).flatMap((f) => SUPPORT_OF[f as VoteFeature] ?? []));
  const evidence: TotalEvidence = { support: [...support], fromSubtotal: false, blankLabel };
  const sources: TotalsSources = {};
  if (chosen) sources.total = chosen.line;
  // With no total printed, the subtotal is the best the receipt says.
  if (total === null && subtotal !== null) {
    total = subtotal;
    sources.total = first.subtotal!.line;
    evidence.fromSubtotal = true;
  }
  // The line under the subtotal, its label garbled ("xax 3.20" for "TAX 3.20"): a candidate for the same arithmetic.
  const under = first.subtotal ? first.subtotal.line + 1 : -1;
  if (under > 0 && under < lines.length && kinds[under] === null && !rateLines.some((l) => l.line === under)) {
    const amounts = read(lines[under]!);
    if (amounts.length === 1 && amounts[0]! > 0) rateLines.push({ amount: amounts[0]!, line: under, rate: null });
  }
  const decided = decideTax(taxLines, table, total, currency) ?? taxByArithmetic(rateLines, total, subtotal, tip, discount) ?? taxFromBreakupRow(lines, total, read, currency);
  const tax = decided && completedTax(decided, [...taxLines, ...rateLines], { subtotal, total, tip, discount }, currency);
  // The total illegible but the subtotal and its tax read: they make it.
  if (evidence.fromSubtotal && tax && tax.amount > 0 && tax.line > first.subtotal!.line) total = round2(subtotal! + tax.amount + (tip ?? 0) - (discount ?? 0));
  // A subtotal whose label OCR garbled ("Svb/7tI 11.75", "Amount : 9.00"): the amount beside the tax that it makes into the total.
  const besideTax = subtotal === null && tax && tax.amount > 0 && total !== null ? subtotalBesideTax(lines, kinds, tax, round2(total - (tip ?? 0) + (discount ?? 0)), read) : null;
  if (besideTax) first.subtotal = besideTax;
  const printedSubtotal = subtotal ?? besideTax?.amount ?? null;
  const totals: TextTotals = {
    total,
    subtotal: printedSubtotal !== null && total !== null && printedSubtotal > total + 0.005 && discount === null ? null : printedSubtotal,
    tax: tax?.amount ?? null,
    tip,
    discount: discount !== null && total !== null && discount > total ? null : discount,
  };
  if (totals.subtotal !== null) sources.subtotal = first.subtotal!.line;
  if (tax) sources.tax = tax.line;
  if (tip !== null) sources.tip = first.tip!.line;
  if (totals.discount !== null) sources.discount = first.discount!.line;
  // Cash − change saying another amount than the total (beyond cash rounding) is a contradiction to report.
  const contradicted = derived !== null && total !== null && Math.abs(derived - total) > CASH_ROUNDING;
  // The first line labelled as tax, with or without an amount read (-1: none): a tax the sums may still give.
  const rates = tax ? taxRates(tax, table, taxLines, totals) : [];
  return { totals, sources, contradicted, taxLabelLine: kinds.indexOf('tax'), evidence, candidates, rates };
}

/** Line kinds a subtotal with a garbled label may read as: none, a total that the tax is added to, or a net amount. */
const SUBTOTAL_LOOKALIKES = new Set<string | null>([null, 'ignore', ...TOTAL_KINDS]);

/**
 * The priced line just above the tax line, or just under it, whose one amount and the tax make
 * the total (before tip and discount): the subtotal, whatever its label reads as.
 */
export function subtotalBesideTax(
  lines: readonly string[],
  kinds: ReadonlyArray<string | null>,
  tax: { amount: number; line: number },
  beforeTax: number,
  read: AmountReader = amountsIn,
): { amount: number; line: number } | null {
  const net = round2(beforeTax - tax.amount);
  if (net <= 0) return null;
  const above = lines.findLastIndex((l, j) => j < tax.line && read(l).length > 0);
  const under = lines.findIndex((l, j) => j > tax.line && read(l).length > 0);
  for (const j of [above, under]) {
    if (j < 0 || !SUBTOTAL_LOOKALIKES.has(kinds[j]!)) continue;
    const amounts = read(withoutRates(lines[j]!));
    if (amounts.length === 1 && near(amounts[0]!, net)) return { amount: amounts[0]!, line: j };
  }
  return null;
}

interface TaxLine {
  amount: number;
  line: number;
  /** Prints a rate ("MwSt 19 %"): one of several per-rate lines. */
  rate: boolean;
  /** That rate as a fraction, where it reads as one. */
  percent: number | null;
  /** Says it is the total tax ("Total tax", "Summe MwSt"). */
  stated: boolean;
}

/**
 * The receipt's tax per rate, where it prints them: its rate table's rows when they make the tax
 * chosen; else the one rate its tax line prints when that rate on the rest of the total is the
 * tax ("VAT 20% 2.00" on a total of 12.00). Nothing where the rows would have to be guessed.
 */
export function taxRates(tax: { amount: number; line: number }, table: RateTable | null, lines: readonly TaxLine[], totals: TextTotals): TaxRateRow[] {
  if (table && table.rows.length > 0 && near(table.tax, tax.amount)) return table.rows;
  const line = lines.find((l) => l.line === tax.line && near(l.amount, tax.amount));
  const { total, tip, discount } = totals;
  if (!line || line.percent === null || line.percent <= 0 || total === null || tip !== null || discount !== null) return [];
  const net = round2(total - tax.amount);
  return Math.abs(net * line.percent - tax.amount) <= 2 * ROW_ROUNDING ? [{ rate: asPercent(line.percent), net, tax: tax.amount, gross: total }] : [];
}

interface RateLine {
  amount: number;
  line: number;
  /** The rate the line prints; null for the unlabelled line under the subtotal. */
  rate: number | null;
}

/**
 * With no tax line to go by, a line printing a rate and one amount is the tax when the sums say
 * so: the rate's share of the total (prices include it) or of the subtotal (added to it), or the
 * amount the subtotal lacks to make the total ("B-Taxable @6.250% 0.50" under "SUBTOTAL 40.00",
 * total 40.50). Several rate lines may make that amount between them; the unlabelled line under the
 * subtotal may make it alone.
 */
export function taxByArithmetic(lines: readonly RateLine[], total: number | null, subtotal: number | null, tip: number | null, discount: number | null): { amount: number; line: number } | null {
  if (total === null || lines.length === 0) return null;
  const share = ({ rate, amount }: RateLine) =>
    rate !== null && (Math.abs((total * rate) / (1 + rate) - amount) <= ROW_ROUNDING || (subtotal !== null && Math.abs(subtotal * rate - amount) <= ROW_ROUNDING));
  const single = lines.find(share);
  if (single) return { amount: single.amount, line: single.line };
  if (subtotal === null) return null;
  const missing = round2(total - subtotal - (tip ?? 0) + (discount ?? 0));
  const rated = lines.filter((l) => l.rate !== null);
  const sum = round2(rated.reduce((s, l) => s + l.amount, 0));
  if (missing > 0 && rated.length > 0 && near(sum, missing)) return { amount: sum, line: rated[0]!.line };
  const one = lines.find((l) => near(l.amount, missing));
  return missing > 0 && one ? { amount: one.amount, line: one.line } : null;
}

/** Tax lines further than this from the one chosen belong to another part of the receipt. */
const TAX_BLOCK_LINES = 3;

/**
 * The tax chosen, or — where it leaves subtotal + tax short of the total and one or two tax or
 * rate lines beside it make up the difference — their sum: a receipt charging several taxes (state
 * and county, CGST and SGST, VAT and a second rate) whose labels OCR garbled on all but one.
 */
export function completedTax(
  tax: { amount: number; line: number },
  others: ReadonlyArray<{ amount: number; line: number }>,
  sums: { subtotal: number | null; total: number | null; tip: number | null; discount: number | null },
  currency?: string,
): { amount: number; line: number } {
  const { subtotal, total } = sums;
  if (subtotal === null || total === null) return tax;
  const residual = (t: number) => Math.abs(subtotal + t + (sums.tip ?? 0) - (sums.discount ?? 0) - total);
  // The spec's tolerance says the tax chosen already makes the sums; lines added must make them to the rounding of a few rows.
  if (residual(tax.amount) <= Math.max(0.01, total * 0.01) + 1e-9) return tax;
  const tolerance = Math.max(0.02, total * 0.001) + 1e-9;
  const beside = others.filter((o) => o.line !== tax.line && o.amount > 0 && Math.abs(o.line - tax.line) <= TAX_BLOCK_LINES);
  const unique = beside.filter((o, i) => beside.findIndex((p) => p.line === o.line) === i);
  let best: number | null = null;
  const consider = (sum: number) => {
    if (residual(sum) <= tolerance && plausibleTax(sum, total, currency) && (best === null || residual(sum) < residual(best))) best = round2(sum);
  };
  unique.forEach((a, i) => {
    consider(tax.amount + a.amount);
    for (const b of unique.slice(i + 1)) consider(tax.amount + a.amount + b.amount);
  });
  return best === null ? tax : { amount: best, line: tax.line };
}

/**
 * A tax breakup's total row: the taxable amount, then each tax on it (CGST and SGST, state and
 * county tax, …), adding up to the receipt's total ("Total 410.00 20.50 20.50" on a total of
 * 451.00). The row names a total or a tax, or sits under a header that does; the taxable amount
 * is the largest; the taxes are their sum.
 */
export function taxFromBreakupRow(lines: readonly string[], total: number | null, read: AmountReader = amountsIn, currency?: string): { amount: number; line: number } | null {
  if (total === null) return null;
  let header = -Infinity;
  for (const [i, line] of lines.entries()) {
    if (TAX_WORD.test(line)) header = i;
    const amounts = read(withoutRates(line));
    if (amounts.length < 3 || amounts.length > 5) continue;
    if (!TOTAL_WORD.test(line) && !TAX_WORD.test(line) && i - header > TABLE_ROWS) continue;
    const [taxable, ...taxes] = amounts as [number, ...number[]];
    const tax = round2(taxes.reduce((sum, t) => sum + t, 0));
    if (taxes.some((t) => t < 0 || t >= taxable) || tax <= 0) continue;
    if (Math.abs(taxable + tax - total) <= 0.005 + 0.01 * taxes.length && plausibleTax(tax, total, currency)) return { amount: tax, line: i };
  }
  return null;
}

/** Tax at a rate the receipt's country can charge on the total. */
function plausibleTax(tax: number, total: number | null, currency: string | undefined): boolean {
  return tax >= 0 && (total === null || plausibleTaxRate(currency, tax, total));
}

/**
 * The receipt's total tax: a line saying it is the total tax, else the per-rate lines added up
 * (where each prints its own rate), else the first tax line; a rate table's tax when no printed
 * line is plausible for the total.
 */
export function decideTax(lines: readonly TaxLine[], table: RateTable | null, total: number | null, currency?: string): { amount: number; line: number } | null {
  const plausible = lines.filter((l) => plausibleTax(l.amount, total, currency));
  const stated = plausible.find((l) => l.stated);
  if (stated) return stated;
  const perRate = plausible.filter((l) => l.rate && l.amount > 0);
  if (perRate.length > 1) {
    const sum = round2(perRate.reduce((s, l) => s + l.amount, 0));
    if (plausibleTax(sum, total, currency)) return { amount: sum, line: perRate[0]!.line };
  }
  if (plausible.length > 0 && (!table || plausible[0]!.amount > 0)) return plausible[0]!;
  // A rate table whose gross column makes the total states its tax, whatever the currency's usual rates (which may be a guess).
  const tableMakesTotal = table !== null && total !== null && near(table.gross, total) && table.tax >= 0;
  return table && (tableMakesTotal || plausibleTax(table.tax, total, currency)) ? { amount: table.tax, line: table.line } : (plausible[0] ?? null);
}

export function findTotals(lines: readonly string[], read: AmountReader = amountsIn, currency?: string): TextTotals {
  return findTotalsWithSources(lines, read, currency).totals;
}
