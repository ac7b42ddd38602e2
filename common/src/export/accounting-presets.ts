import type { CellValue, ExportSource } from './export-rows.js';
import { plainAmount } from './money-format.rule.js';

export const EXPORT_PRESETS = ['generic', 'quickbooks', 'xero', 'ynab', 'firefly', 'ofx', 'qif', 'datev'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

/** What the layout picker and the messages call each preset. */
export const EXPORT_PRESET_LABELS: Readonly<Record<ExportPreset, string>> = {
  generic: 'Excel (all fields)',
  quickbooks: 'QuickBooks',
  xero: 'Xero',
  ynab: 'YNAB',
  firefly: 'Firefly III',
  ofx: 'OFX bank statement',
  qif: 'QIF (Quicken)',
  datev: 'DATEV Buchungsstapel',
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

/** A CSV import layout: its header and the line of one receipt. */
export interface AccountingPreset {
  /** Header row, exactly as the product's import template has it. */
  columns: readonly string[];
  defaultDateFormat: DateFormat;
  /** The import line of one receipt; null when it lacks a real date or a total. */
  line(source: ExportSource, dateFormat: DateFormat): CellValue[] | null;
}

/** Receipts are money spent: the products read a minus sign as money out. */
export function spent(source: ExportSource): string | null {
  const { total, currency } = source.receipt;
  return typeof total === 'number' ? plainAmount(-total, currency ?? 'USD') : null;
}

/**
 * QuickBooks Online "Upload from file", the 3-column bank-transaction CSV: Date, Description,
 * Amount; negative amounts are payments. US companies read MM/DD/YYYY (the date layout is
 * confirmed on import).
 */
const quickbooks: AccountingPreset = {
  columns: ['Date', 'Description', 'Amount'],
  defaultDateFormat: 'MM/DD/YYYY',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const amount = spent(source);
    if (!date || amount === null) return null;
    const { merchantName, receiptNumber, tin, tags } = source.receipt;
    const description = `${merchantName || 'Receipt'}${receiptNumber ? ` #${receiptNumber}` : ''}${tin ? `, ${vatNumber(tin)}` : ''}${tags?.length ? `, ${tagsText(tags)}` : ''}`;
    return [date, description.slice(0, 250), amount];
  },
};

/**
 * Xero "Import a Statement", the columns of its bank-statement CSV template: *Date and *Amount
 * required, then Payee, Description, Reference and Cheque Number; a minus sign for money spent;
 * the template's DD/MM/YYYY.
 */
const xero: AccountingPreset = {
  columns: ['*Date', '*Amount', 'Payee', 'Description', 'Reference', 'Cheque Number'],
  defaultDateFormat: 'DD/MM/YYYY',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const amount = spent(source);
    if (!date || amount === null) return null;
    const { merchantName, category, paymentMethod, receiptNumber, tin, tags } = source.receipt;
    const description = [`${category} receipt`, tin ? vatNumber(tin) : null, paymentMethod ? `paid by ${paymentMethod}` : null, tags?.length ? tagsText(tags) : null, source.filename]
      .filter(Boolean)
      .join(', ');
    return [date, amount, merchantName ?? null, description, receiptNumber ?? null, null];
  },
};

/** The category as the products show it: `Grocery`, `Restaurant`, … */
export function categoryLabel(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

/** The merchant's VAT or tax number as a memo names it (what a bookkeeper reclaims VAT with). */
export const vatNumber = (tin: string) => `VAT no. ${tin}`;

/** The owner's tags as a memo names them. */
export const tagsText = (tags: readonly string[]) => `tags: ${tags.join(', ')}`;

/** Receipt number, the merchant's VAT number, payment, the owner's tags and file, for a memo or notes column. */
export function memoOf(source: ExportSource): string {
  const { receiptNumber, tin, paymentMethod, tags } = source.receipt;
  return [receiptNumber ? `Receipt #${receiptNumber}` : null, tin ? vatNumber(tin) : null, paymentMethod ? `paid by ${paymentMethod}` : null, tags?.length ? tagsText(tags) : null, source.filename]
    .filter(Boolean)
    .join(', ');
}

/**
 * YNAB file-based import, its CSV layout: Date, Payee, Memo, Outflow, Inflow; money spent is an
 * outflow written without a sign. YNAB asks for the date layout on import; MM/DD/YYYY by default.
 */
const ynab: AccountingPreset = {
  columns: ['Date', 'Payee', 'Memo', 'Outflow', 'Inflow'],
  defaultDateFormat: 'MM/DD/YYYY',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const { total, currency } = source.receipt;
    if (!date || typeof total !== 'number') return null;
    return [date, source.receipt.merchantName ?? null, memoOf(source), plainAmount(total, currency ?? 'USD'), null];
  },
};

/** The Firefly III columns, in the order the data importer's configuration (`fireflyImportConfig`) gives them roles. */
export const FIREFLY_COLUMNS = ['Date', 'Description', 'Amount', 'Currency', 'Payee', 'Category', 'Tags', 'Notes', 'Receipt ID'] as const;

/**
 * Firefly III data importer CSV: a negative amount is a withdrawal from the asset account
 * picked on import, the payee becomes its expense account, the receipt id makes a re-import
 * skip what is already there. Its configuration file is `fireflyImportConfig`.
 */
const firefly: AccountingPreset = {
  columns: FIREFLY_COLUMNS,
  defaultDateFormat: 'YYYY-MM-DD',
  line(source, dateFormat) {
    const date = formatDay(source.receipt.date, dateFormat);
    const amount = spent(source);
    if (!date || amount === null) return null;
    const { merchantName, currency, category, tags, id } = source.receipt;
    const description = `${merchantName || 'Receipt'}${source.receipt.receiptNumber ? ` #${source.receipt.receiptNumber}` : ''}`;
    return [date, description, amount, currency ?? 'USD', merchantName ?? null, categoryLabel(category), tags?.length ? tags.join(',') : null, memoOf(source), id];
  },
};

export const ACCOUNTING_PRESETS = { quickbooks, xero, ynab, firefly } as const satisfies Record<string, AccountingPreset>;
export type AccountingPresetName = keyof typeof ACCOUNTING_PRESETS;

/** Firefly III's date patterns (PHP `date` letters) for our layouts. */
const FIREFLY_DATE: Record<DateFormat, string> = { 'MM/DD/YYYY': 'm/d/Y', 'DD/MM/YYYY': 'd/m/Y', 'YYYY-MM-DD': 'Y-m-d' };

/**
 * The Firefly III data importer's configuration for the Firefly CSV (version 3, as the importer
 * writes it when a configuration is downloaded): a role per column, duplicates recognised by
 * the receipt id, and the asset account left for the person to pick on the importer's form.
 */
export function fireflyImportConfig(dateFormat: DateFormat, now: Date = new Date()): Record<string, unknown> {
  const roles: Record<(typeof FIREFLY_COLUMNS)[number], string> = {
    Date: 'date_transaction',
    Description: 'description',
    Amount: 'amount',
    Currency: 'currency-code',
    Payee: 'opposing-name',
    Category: 'category-name',
    Tags: 'tags-comma',
    Notes: 'note',
    'Receipt ID': 'external-id',
  };
  return {
    version: 3,
    source: 'receipts-to-excel',
    created_at: now.toISOString(),
    date: FIREFLY_DATE[dateFormat],
    default_account: 0,
    delimiter: 'comma',
    headers: true,
    rules: true,
    skip_form: false,
    add_import_tag: true,
    roles: FIREFLY_COLUMNS.map((c) => roles[c]),
    do_mapping: FIREFLY_COLUMNS.map(() => false),
    mapping: [],
    duplicate_detection_method: 'cell',
    ignore_duplicate_lines: true,
    ignore_duplicate_transactions: true,
    unique_column_index: FIREFLY_COLUMNS.indexOf('Receipt ID'),
    unique_column_type: 'external-id',
    flow: 'file',
    content_type: 'csv',
    custom_tag: '',
    conversion: false,
  };
}
