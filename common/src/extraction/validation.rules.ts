import type { ReceiptRecord } from '../receipt.schema.js';

export const QUALITY_THRESHOLD = 0.6;
export const MAX_TOTAL = 10000;
export const MAX_TAX_RATE = 0.5;
const DATE_RANGE_YEARS = 2;

export const ISSUE_TEXTS = {
  missingKeyFields: 'Missing all key fields (merchant, total, and date)',
  invalidDate: 'Invalid date format',
  dateOutOfRange: 'Date out of reasonable range',
  nonPositiveTotal: 'Zero or negative total amount',
  largeTotal: 'Unusually large total amount',
} as const;

const present = (v: number | null | undefined): v is number => typeof v === 'number';

export function missingKeyFields(r: ReceiptRecord): string | null {
  return !r.merchantName && !present(r.total) && !r.date ? ISSUE_TEXTS.missingKeyFields : null;
}

/** Spec §5: the larger of 0.01 and 1 % of the total. */
export function totalTolerance(total: number): number {
  return Math.max(0.01, Math.abs(total) * 0.01);
}

/** calculated = subtotal + tax + tip − discount; tolerance max(0.01, 1 % of total); only with total, subtotal and tax. */
export function totalMismatch(r: ReceiptRecord): string | null {
  if (!present(r.total) || !present(r.subtotal) || !present(r.tax)) return null;
  const calculated = r.subtotal + r.tax + (r.tip ?? 0) - (r.discount ?? 0);
  // A hair of slack so a difference of exactly the tolerance is not lost to binary fractions.
  return Math.abs(calculated - r.total) > totalTolerance(r.total) + 1e-9 ? `Total mismatch: ${r.total.toFixed(2)} vs calculated ${calculated.toFixed(2)}` : null;
}

export function dateIssue(r: ReceiptRecord, now: Date): string | null {
  if (!r.date) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(r.date);
  const parsed = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!parsed || parsed.toISOString().slice(0, 10) !== r.date) return ISSUE_TEXTS.invalidDate;
  const earliest = new Date(now);
  earliest.setUTCFullYear(earliest.getUTCFullYear() - DATE_RANGE_YEARS);
  // "Future" is judged by calendar day, so a receipt dated today in any time zone passes.
  const latest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return parsed < earliest || parsed > latest ? ISSUE_TEXTS.dateOutOfRange : null;
}

export function totalIssue(r: ReceiptRecord): string | null {
  if (!present(r.total)) return null;
  if (r.total <= 0) return ISSUE_TEXTS.nonPositiveTotal;
  if (r.total > MAX_TOTAL) return ISSUE_TEXTS.largeTotal;
  return null;
}

/** Tax as a share of the amount it was charged on (the subtotal, else total − tax); over 50 % is suspicious. */
export function taxRateIssue(r: ReceiptRecord): string | null {
  if (!present(r.tax) || r.tax <= 0) return null;
  const base = present(r.subtotal) && r.subtotal > 0 ? r.subtotal : present(r.total) ? r.total - r.tax : null;
  if (base === null || base <= 0) return present(r.total) ? `Suspicious tax rate: ${Math.round((r.tax / r.total) * 100)}%` : null;
  const rate = r.tax / base;
  return rate > MAX_TAX_RATE ? `Suspicious tax rate: ${Math.round(rate * 100)}%` : null;
}

/** The receipt issues of spec §5, in a fixed order. */
export function validateReceipt(r: ReceiptRecord, now: Date): string[] {
  return [missingKeyFields(r), totalMismatch(r), dateIssue(r, now), totalIssue(r), taxRateIssue(r)].filter(
    (issue): issue is string => issue !== null,
  );
}

/** Spec §4: valid for export only with quality ≥ 0.6 and no issues. */
export function isExportValid(r: ReceiptRecord, issues: readonly string[]): boolean {
  return r.quality >= QUALITY_THRESHOLD && issues.length === 0;
}
