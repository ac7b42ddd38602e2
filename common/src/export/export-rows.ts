import { renderIssue } from '../extraction/issue-codes.rules.js';
import { LOW_QUALITY_FLAG, openFlagsOfView } from '../extraction/validation.rules.js';
import { RECEIPT_DETAIL_FIELDS, type ReceiptView } from '../receipt.schema.js';
import { convertAmount, type ExchangeRates } from './exchange-rates.rules.js';
import { APPROVAL_LABELS, type UploadApproval } from '../approval.rule.js';

export const MAX_ITEM_SLOTS = 20;

const RECEIPT_FIELDS = [...RECEIPT_DETAIL_FIELDS, 'quality', 'rawText'] as const;

const ITEM_COLUMNS = Array.from({ length: MAX_ITEM_SLOTS }, (_, i) => [
  `item_${i + 1}_desc`,
  `item_${i + 1}_qty`,
  `item_${i + 1}_unitPrice`,
  `item_${i + 1}_amount`,
]).flat();

/** VAT rates a row holds: receipts print one, two or three (a reduced, a standard and a zero rate). */
export const MAX_VAT_SLOTS = 3;

/** Net, tax and gross per VAT rate as the receipt's rate table prints them: what a bookkeeper reclaims. */
const VAT_COLUMNS = Array.from({ length: MAX_VAT_SLOTS }, (_, i) => [`vat_${i + 1}_rate`, `vat_${i + 1}_net`, `vat_${i + 1}_tax`, `vat_${i + 1}_gross`]).flat();

/** The owner's tags (comma-separated), and whether the receipt was ready as read or a person checked its flags. */
const TAIL_COLUMNS = ['tags', 'status'] as const;

/** A receipt's status on the Receipts sheet. */
export const EXPORT_STATUS = { ready: 'Ready', checked: 'Checked by you' } as const;

/** Columns of the Receipts sheet: the spec §3 export row, then the VAT rates after the item slots, the tags and the status. */
export const EXPORT_COLUMNS: readonly string[] = ['filename', ...RECEIPT_FIELDS, ...ITEM_COLUMNS, ...VAT_COLUMNS, ...TAIL_COLUMNS];
/**
 * Columns of the Validation Issues sheet: the spec §3 issue row, with the date, tax and currency
 * beside the total so the sheet can be worked from without the app.
 */
export const ISSUE_COLUMNS = ['filename', 'merchantName', 'date', 'total', 'tax', 'currency', 'quality', 'issues', 'rawText'] as const;
export const SUMMARY_COLUMNS = ['metric', 'value'] as const;

export type CellValue = string | number | null;
export type ExportRow = Record<string, CellValue>;

/** A stored receipt with the file it came from, and where it stands in the approval step. */
export interface ExportSource {
  filename: string | null;
  receipt: ReceiptView;
  approval?: UploadApproval;
}

/** The Approval columns a team workspace's workbook adds to its sheets: the status and the decision's comment. */
export const APPROVAL_COLUMNS = ['approval', 'approval_comment'] as const;

/** A receipt's Approval columns, in APPROVAL_COLUMNS order. */
export function approvalValues({ approval }: ExportSource): CellValue[] {
  return approval ? [APPROVAL_LABELS[approval.status], approval.comment] : [null, null];
}

const MONEY_COLUMNS = new Set(['subtotal', 'tax', 'tip', 'discount', 'total']);
export function isMoneyColumn(column: string): boolean {
  return MONEY_COLUMNS.has(column) || /^item_\d+_(unitPrice|amount)$/.test(column) || /^vat_\d+_(net|tax|gross)$/.test(column);
}

const ITEMS_AT = 1 + RECEIPT_FIELDS.length;
const VAT_AT = ITEMS_AT + ITEM_COLUMNS.length;
const TAIL_AT = VAT_AT + VAT_COLUMNS.length;

/**
 * Columns after EXPORT_COLUMNS when the export converts to a home currency: the total in it at the
 * receipt day's reference rate from the operator's rates file, the rate and the day it was fixed;
 * empty where the file has no rate for the receipt (never a made-up one).
 */
export const CONVERSION_COLUMNS = ['converted_currency', 'converted_total', 'exchange_rate', 'rate_date'] as const;

/** A receipt's conversion columns, in CONVERSION_COLUMNS order. */
export function conversionValues({ receipt }: ExportSource, to: string, rates: ExchangeRates): CellValue[] {
  const converted = typeof receipt.total === 'number' ? convertAmount(rates, receipt.total, receipt.currency ?? 'USD', to, receipt.date) : null;
  return converted ? [to, converted.amount, converted.rate, converted.rateDay] : [to, null, null, null];
}

/** An export row as values in EXPORT_COLUMNS order (what a streamed sheet writes, without a keyed object per row). */
export function exportRowValues({ filename, receipt }: ExportSource): CellValue[] {
  const values = new Array<CellValue>(EXPORT_COLUMNS.length).fill(null);
  values[0] = filename || 'unknown.pdf';
  for (let i = 0; i < RECEIPT_FIELDS.length; i++) values[i + 1] = (receipt[RECEIPT_FIELDS[i]!] as CellValue | undefined) ?? null;
  values[1 + RECEIPT_FIELDS.indexOf('currency')] = receipt.currency ?? 'USD';
  const items = receipt.items.length > MAX_ITEM_SLOTS ? receipt.items.slice(0, MAX_ITEM_SLOTS) : receipt.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const at = ITEMS_AT + i * 4;
    values[at] = item.description || 'Unknown Item';
    values[at + 1] = item.qty ?? null;
    values[at + 2] = item.unitPrice ?? null;
    values[at + 3] = item.amount ?? null;
  }
  const rates = (receipt.taxRates ?? []).slice(0, MAX_VAT_SLOTS);
  for (let i = 0; i < rates.length; i++) {
    const { rate, net, tax, gross } = rates[i]!;
    values.splice(VAT_AT + i * 4, 4, rate, net, tax, gross);
  }
  values[TAIL_AT] = receipt.tags?.length ? receipt.tags.join(', ') : null;
  values[TAIL_AT + 1] = receipt.acceptedIssues?.length ? EXPORT_STATUS.checked : EXPORT_STATUS.ready;
  return values;
}

/** The spec §3 export row: filename (default unknown.pdf), every receipt field, 20 item slots; then the VAT rates. */
export function exportRow(source: ExportSource): ExportRow {
  const values = exportRowValues(source);
  return Object.fromEntries(EXPORT_COLUMNS.map((column, i) => [column, values[i]!]));
}

/** A receipt on the Validation Issues sheet: what it says, and the flags nobody accepted. */
export function issueRow({ filename, receipt }: ExportSource): ExportRow {
  const open = openFlagsOfView(receipt).map(renderIssue);
  return {
    filename: filename || 'unknown.pdf',
    merchantName: receipt.merchantName ?? null,
    date: receipt.date ?? null,
    total: receipt.total ?? null,
    tax: receipt.tax ?? null,
    currency: receipt.currency ?? 'USD',
    quality: formatQuality(receipt.quality),
    issues: open.length > 0 ? open.join('; ') : renderIssue(LOW_QUALITY_FLAG),
    rawText: receipt.rawText,
  };
}

/** Issue quality shows as a percentage, or N/A when unknown (spec §7). */
export function formatQuality(quality: number | null | undefined): string {
  return typeof quality === 'number' && Number.isFinite(quality) ? `${Math.round(quality * 100)}%` : 'N/A';
}

export interface ExportTally {
  processed: number;
  exported: number;
  withIssues: number;
  qualitySum: number;
}

export const emptyTally = (): ExportTally => ({ processed: 0, exported: 0, withIssues: 0, qualitySum: 0 });

/** Adds one receipt to the running tally; a streamed export never holds all receipts at once. */
export function tallyReceipt(tally: ExportTally, receipt: ReceiptView): ExportTally {
  tally.processed += 1;
  tally.qualitySum += receipt.quality;
  if (receipt.valid) tally.exported += 1;
  else tally.withIssues += 1;
  return tally;
}

export function summaryRows(tally: ExportTally): ExportRow[] {
  const pct = (n: number) => (tally.processed === 0 ? 0 : Math.round((n / tally.processed) * 1000) / 10);
  return [
    { metric: 'Total processed', value: tally.processed },
    { metric: 'Successfully exported', value: tally.exported },
    { metric: 'Validation issues', value: tally.withIssues },
    { metric: 'Success rate %', value: pct(tally.exported) },
    { metric: 'Average quality %', value: tally.processed === 0 ? 0 : Math.round((tally.qualitySum / tally.processed) * 1000) / 10 },
  ];
}
