import type { CellValue, ExportSource } from './export-rows.js';
import { plainAmount } from './money-format.rule.js';

export const EXPORT_PRESETS = ['generic', 'quickbooks', 'xero'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];
export type AccountingPresetName = Exclude<ExportPreset, 'generic'>;

/** What the layout picker and the messages call each preset. */
export const EXPORT_PRESET_LABELS: Readonly<Record<ExportPreset, string>> = {
  generic: 'Excel (all fields)',
  quickbooks: 'QuickBooks',
  xero: 'Xero',
};

export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** A `YYYY-MM-DD` day in another layout; null for anything that is not a real calendar day. */
export function formatDay(day: string | null | undefined, format: DateFormat): string | null {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!m) return null;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.toISOString().slice(0, 10) !== day) return null;
  if (format === 'MM/DD/YYYY') return `${mo}/${d}/${y}`;
  if (format === 'DD/MM/YYYY') return `${d}/${mo}/${y}`;
  return day!;
}

export interface AccountingPreset {
  /** The product's name, for messages. */
  label: string;
  /** Header row, exactly as the product's import template has it. */
  columns: readonly string[];
  defaultDateFormat: DateFormat;
  /** The import line of one receipt; null when it lacks a real date or a total. */
  line(source: ExportSource, dateFormat: DateFormat): CellValue[] | null;
}

/** Receipts are money spent: the products read a minus sign as money out. */
function spent(source: ExportSource): string | null {
  const { total, currency } = source.receipt;
  return typeof total === 'number' ? plainAmount(-total, currency ?? 'USD') : null;
}

/**
 * QuickBooks Online "Upload from file", the 3-column bank-transaction CSV: Date, Description,
 * Amount; negative amounts are payments. US companies read MM/DD/YYYY (the date layout is
 * confirmed on import).
 */
const quickbooks: AccountingPreset = {
  label: EXPORT_PRESET_LABELS.quickbooks,
  columns: ['Date', 'Description', 'Amount'],
  defaultDateFormat: 'MM/DD/YYYY',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const amount = spent(source);
    if (!date || amount === null) return null;
    const { merchantName, receiptNumber } = source.receipt;
    const description = `${merchantName || 'Receipt'}${receiptNumber ? ` #${receiptNumber}` : ''}`;
    return [date, description.slice(0, 250), amount];
  },
};

/**
 * Xero "Import a Statement", the columns of its bank-statement CSV template: *Date and *Amount
 * required, then Payee, Description, Reference and Cheque Number; a minus sign for money spent;
 * the template's DD/MM/YYYY.
 */
const xero: AccountingPreset = {
  label: EXPORT_PRESET_LABELS.xero,
  columns: ['*Date', '*Amount', 'Payee', 'Description', 'Reference', 'Cheque Number'],
  defaultDateFormat: 'DD/MM/YYYY',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const amount = spent(source);
    if (!date || amount === null) return null;
    const { merchantName, category, paymentMethod, receiptNumber } = source.receipt;
    const description = [`${category} receipt`, paymentMethod ? `paid by ${paymentMethod}` : null, source.filename]
      .filter(Boolean)
      .join(', ');
    return [date, amount, merchantName ?? null, description, receiptNumber ?? null, null];
  },
};

export const ACCOUNTING_PRESETS: Record<AccountingPresetName, AccountingPreset> = { quickbooks, xero };
