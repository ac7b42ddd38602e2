import type { ReceiptRecord, ReceiptView } from '../receipt.schema.js';
import { itemsAgree } from './arithmetic.rule.js';
import { FLAG_KINDS, issueFlag, QUALITY_THRESHOLD, renderIssue, type FlagCode, type IssueFlag } from './issue-codes.rules.js';

export const MAX_TOTAL = 10000;
export const MAX_TAX_RATE = 0.5;
const DATE_RANGE_YEARS = 2;

/** What a receipt issue is (spec §5, items, doubts), for code that places or counts issues; its message is what people read. */
export type IssueCode = Exclude<FlagCode, 'lowQuality' | 'legacy'>;

const ISSUE_CODES = (Object.keys(FLAG_KINDS) as FlagCode[]).filter((code): code is IssueCode => code !== 'lowQuality' && code !== 'legacy');

/** Each receipt issue's message (spec §5, character for character), by its code; `{name}` stands for a value. */
export const ISSUE_TEXTS = Object.fromEntries(ISSUE_CODES.map((code) => [code, FLAG_KINDS[code].text])) as {
  readonly [C in IssueCode]: (typeof FLAG_KINDS)[C]['text'];
};

/** The doubts about key fields: raised by extraction, not by the record's values, so kept until a person changes the field. */
export const DOUBT_CODES: ReadonlySet<FlagCode> = new Set<IssueCode>([
  'totalNotFound', 'totalUnconfirmed', 'totalHandwritten', 'dateNotFound', 'dateEitherWay', 'dateFarFromOthers',
  'merchantNotFound', 'merchantBelowHeader', 'merchantUnconfirmed', 'merchantMayContinue', 'currencyAssumed', 'currencyDefault', 'currencyWeak',
]);

/**
 * Issues a person should see that do not keep the receipt off the Receipts sheet: they are not
 * about the key fields a bookkeeper books (total, date, merchant, currency), and the totals stand
 * on their own.
 */
export const NOTICE_CODES: ReadonlySet<FlagCode> = new Set<FlagCode>(['itemsDontAddUp']);

/**
 * What kind of flag it is, as people see kinds: its template ("Total mismatch: {total} vs
 * calculated {calculated}") whatever its values; a kept message of no known kind is its own kind.
 * Flags of one kind are accepted together.
 */
export function flagKind(flag: IssueFlag): string {
  return flag.code === 'legacy' ? renderIssue(flag) : FLAG_KINDS[flag.code].text;
}

const present = (v: number | null | undefined): v is number => typeof v === 'number';

/** Whether two flags say the same: one code, the same values. */
export function sameFlag(a: IssueFlag, b: IssueFlag): boolean {
  if (a.code !== b.code) return false;
  const keys = Object.keys(a.values);
  return keys.length === Object.keys(b.values).length && keys.every((k) => a.values[k] === b.values[k]);
}

export function missingKeyFields(r: ReceiptRecord): IssueFlag | null {
  return !r.merchantName && !present(r.total) && !r.date ? issueFlag('missingKeyFields') : null;
}

/** Spec §5: the larger of 0.01 and 1 % of the total. */
export function totalTolerance(total: number): number {
  return Math.max(0.01, Math.abs(total) * 0.01);
}

/** calculated = subtotal + tax + tip − discount; tolerance max(0.01, 1 % of total); only with total, subtotal and tax. */
export function totalMismatch(r: ReceiptRecord): IssueFlag | null {
  if (!present(r.total) || !present(r.subtotal) || !present(r.tax)) return null;
  const calculated = r.subtotal + r.tax + (r.tip ?? 0) - (r.discount ?? 0);
  // A hair of slack so a difference of exactly the tolerance is not lost to binary fractions.
  return Math.abs(calculated - r.total) > totalTolerance(r.total) + 1e-9 ? issueFlag('totalMismatch', { total: r.total.toFixed(2), calculated: calculated.toFixed(2) }) : null;
}

export function dateIssue(r: ReceiptRecord, now: Date): IssueFlag | null {
  if (!r.date) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(r.date);
  const parsed = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!parsed || parsed.toISOString().slice(0, 10) !== r.date) return issueFlag('invalidDate');
  const earliest = new Date(now);
  earliest.setUTCFullYear(earliest.getUTCFullYear() - DATE_RANGE_YEARS);
  // "Future" is judged by calendar day, so a receipt dated today in any time zone passes.
  const latest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return parsed < earliest || parsed > latest ? issueFlag('dateOutOfRange') : null;
}

export function totalIssue(r: ReceiptRecord): IssueFlag | null {
  if (!present(r.total)) return null;
  if (r.total <= 0) return issueFlag('nonPositiveTotal');
  if (r.total > MAX_TOTAL) return issueFlag('largeTotal');
  return null;
}

/** Tax as a share of the amount it was charged on (the subtotal, else total − tax); over 50 % is suspicious. */
export function taxRateIssue(r: ReceiptRecord): IssueFlag | null {
  if (!present(r.tax) || r.tax <= 0) return null;
  const base = present(r.subtotal) && r.subtotal > 0 ? r.subtotal : present(r.total) ? r.total - r.tax : null;
  if (base === null || base <= 0) return present(r.total) ? issueFlag('suspiciousTaxRate', { rate: String(Math.round((r.tax / r.total) * 100)) }) : null;
  const rate = r.tax / base;
  return rate > MAX_TAX_RATE ? issueFlag('suspiciousTaxRate', { rate: String(Math.round(rate * 100)) }) : null;
}

/**
 * Items read with every amount that make none of the receipt's sums — the subtotal, or the total
 * with or without its tax, tip and discount — were misread, or lines were missed or taken twice.
 * Stated against the subtotal where one is printed, else the total.
 */
export function itemsIssue(r: ReceiptRecord): IssueFlag | null {
  if (r.items.length === 0 || r.items.some((i) => !present(i.amount)) || !present(r.total)) return null;
  const sum = r.items.reduce((s, i) => s + i.amount!, 0);
  const tip = r.tip ?? 0;
  const discount = r.discount ?? 0;
  const tax = r.tax ?? 0;
  const sums = [r.subtotal ?? null, r.total, r.total - tip, r.total - tax - tip, r.total - tax - tip + discount, r.total - tip + discount];
  if (sums.some((s) => s !== null && itemsAgree(sum, r.items.length, s, null))) return null;
  const expected = present(r.subtotal) ? r.subtotal : r.total;
  return issueFlag('itemsDontAddUp', { sum: (Math.round(sum * 100) / 100).toFixed(2), expected: expected.toFixed(2) });
}

/** The receipt issues of spec §5, in a fixed order. */
export function validateReceipt(r: ReceiptRecord, now: Date): IssueFlag[] {
  return [missingKeyFields(r), totalMismatch(r), dateIssue(r, now), totalIssue(r), taxRateIssue(r)].filter((issue): issue is IssueFlag => issue !== null);
}

/**
 * A receipt's flags: the spec's issues, items that make none of its sums, then the extraction's doubts about key fields. A doubt
 * the issues already say is not repeated (a total mismatch says the total is unconfirmed; with
 * every key field missing, each missing one need not be named).
 */
export function receiptIssues(r: ReceiptRecord, doubts: readonly IssueFlag[], now: Date): IssueFlag[] {
  const issues = validateReceipt(r, now);
  const said = new Set(issues.map((i) => i.code));
  const repeats = (code: FlagCode) =>
    (code === 'totalUnconfirmed' && said.has('totalMismatch')) ||
    (said.has('missingKeyFields') && (code === 'totalNotFound' || code === 'dateNotFound' || code === 'merchantNotFound'));
  const items = itemsIssue(r);
  return [...issues, ...(items ? [items] : []), ...doubts.filter((d) => !issues.some((i) => sameFlag(i, d)) && !repeats(d.code))];
}

/** Subtotal + tax + tip − discount make the total, with a tax added to a smaller subtotal: the sum confirms the total. */
export function sumConfirmsTotal(r: ReceiptRecord): boolean {
  if (!present(r.total) || !present(r.subtotal) || !present(r.tax) || r.tax <= 0 || r.subtotal >= r.total) return false;
  return totalMismatch(r) === null;
}

/**
 * The doubts that still stand after a person edited the receipt: those about fields they did not
 * change (changing a field is answering its doubt), and no doubt about the total once the sums a
 * person typed confirm it.
 */
export function doubtsAfterEdit(issues: readonly IssueFlag[], changed: ReadonlySet<string>, after?: ReceiptRecord): IssueFlag[] {
  return issues.filter(({ code }) => {
    if (!DOUBT_CODES.has(code) || changed.has(FLAG_KINDS[code].field ?? '')) return false;
    return !(code === 'totalUnconfirmed' && after && FLAG_KINDS.totalUnconfirmed.fields.some((f) => changed.has(f)) && sumConfirmsTotal(after));
  });
}

/** What a receipt whose quality is below the threshold is flagged with (the Validation Issues sheet's wording). */
export const LOW_QUALITY_FLAG: IssueFlag = issueFlag('lowQuality');

/** A flag a person looked at and accepted, as stored: the receipt is right as it stands. */
export interface IssueAcceptance {
  flag: IssueFlag;
  /** Who accepted it; null for an anonymous visitor. */
  userId: string | null;
  /** When, ISO 8601. */
  at: string;
}

/**
 * Everything that keeps a receipt off the Receipts sheet (spec §4): its issues but the notices, and low quality.
 * Each is a flag a person may accept after looking at the receipt.
 */
export function reviewFlags(r: Pick<ReceiptRecord, 'quality'>, issues: readonly IssueFlag[]): IssueFlag[] {
  const flags = issues.filter((i) => !NOTICE_CODES.has(i.code));
  return r.quality >= QUALITY_THRESHOLD ? flags : [...flags, LOW_QUALITY_FLAG];
}

/** The flags nobody accepted. An acceptance holds for the flag accepted: a changed value (a new mismatch) asks again. */
export function openFlags(r: Pick<ReceiptRecord, 'quality'>, issues: readonly IssueFlag[], accepted: ReadonlyArray<Pick<IssueAcceptance, 'flag'>> = []): IssueFlag[] {
  return reviewFlags(r, issues).filter((flag) => !accepted.some((a) => sameFlag(a.flag, flag)));
}

/**
 * Spec §4: valid for export only with quality ≥ 0.6 and no issues — unless a person accepted
 * each of those flags after looking (without acceptances, exactly the spec's rule).
 */
export function isExportValid(r: Pick<ReceiptRecord, 'quality'>, issues: readonly IssueFlag[], accepted: ReadonlyArray<Pick<IssueAcceptance, 'flag'>> = []): boolean {
  return openFlags(r, issues, accepted).length === 0;
}

/** The acceptances that still apply after the receipt changed: those of flags it still carries, each once. */
export function keptAcceptances<T extends Pick<IssueAcceptance, 'flag'>>(accepted: readonly T[], r: Pick<ReceiptRecord, 'quality'>, issues: readonly IssueFlag[]): T[] {
  const flags = reviewFlags(r, issues);
  return accepted.filter((a, i) => flags.some((f) => sameFlag(f, a.flag)) && !accepted.slice(0, i).some((b) => sameFlag(b.flag, a.flag)));
}

/**
 * A receipt view's open flags. The view is rendered at its edge, its acceptances naming flags by
 * the message shown; each is matched to the receipt's own flag of that message.
 */
export function openFlagsOfView(view: Pick<ReceiptView, 'quality' | 'flags' | 'acceptedIssues'>): IssueFlag[] {
  const shown = reviewFlags(view, view.flags);
  const accepted = new Set((view.acceptedIssues ?? []).map((a) => a.issue));
  return openFlags(view, view.flags, shown.filter((flag) => accepted.has(renderIssue(flag))).map((flag) => ({ flag })));
}
