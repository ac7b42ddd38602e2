import { EXPORT_ERRORS, type ExportFormat, type ExportPreset } from '@receipts/common';
import { ApiError, apiFetch } from './api.js';
import { trackExport } from './analytics.js';

export type { ExportFormat, ExportPreset };

export const NO_COMPLETED_RECEIPTS = EXPORT_ERRORS.nothing;
export const EXPORT_FAILED = 'Export failed. Please try again.';

/** The library filters an export of "all" receipts keeps to (a date range, a search, a category, a tag, a currency). */
export interface ExportFilter {
  q?: string;
  from?: string;
  to?: string;
  category?: string;
  tag?: string;
  currency?: string;
}

export interface ExportOptions {
  format: ExportFormat;
  preset: ExportPreset;
  ids?: readonly string[];
  filter?: ExportFilter;
  name?: string;
  /** A home currency the workbook adds each total in (the server's rates file has it). */
  convertTo?: string;
}

export function exportUrl(options: ExportOptions): string {
  const query = new URLSearchParams({ format: options.format, preset: options.preset });
  if (options.convertTo) query.set('convertTo', options.convertTo);
  if (options.ids?.length) query.set('ids', options.ids.join(','));
  else for (const [k, v] of Object.entries(options.filter ?? {})) if (v) query.set(k, v);
  if (options.name) query.set('name', options.name);
  return `/api/export?${query.toString()}`;
}

/** The Firefly III data importer's configuration for the Firefly CSV. */
export const FIREFLY_CONFIG_URL = '/api/export/firefly-config';

function filenameOf(res: Response, fallback: string): string {
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/** What an export did: the file was saved (with a note when receipts were left out of it), or why not. */
export type ExportOutcome = { saved: true; note: string | null } | { saved: false; message: string };

const receipts = (n: number) => `${n} receipt${n === 1 ? '' : 's'}`;

/** What a person should know about receipts an import file left out (the workbook lists them on its issues sheet), and of files split by currency. */
function leftOut(res: Response, format: ExportFormat): string | null {
  const count = (name: string) => Number(res.headers.get(name)) || 0;
  const notes: string[] = [];
  const skipped = count('x-export-skipped');
  const withIssues = count('x-export-issues');
  if (format !== 'xlsx' && withIssues > 0) {
    notes.push(`${receipts(withIssues)} with validation issues ${withIssues === 1 ? 'was' : 'were'} left out${format === 'zip' ? ' of the import file' : ''}: review ${withIssues === 1 ? 'it' : 'them'} in the receipt details.`);
  }
  if (skipped > 0) notes.push(`${receipts(skipped)} without a date or a total ${skipped === 1 ? 'was' : 'were'} left out of the import file.`);
  const currencies = res.headers.get('x-export-currencies');
  if (currencies) notes.push(`One import file per currency (${currencies.split(',').join(', ')}): an account books in one currency.`);
  return notes.length > 0 ? notes.join(' ') : null;
}

/**
 * Downloads a workbook, an import file or the export pack of the given receipts (or all
 * completed ones) through the browser. A refusal carries the server's reason (which receipts
 * have issues, mixed currencies, a DATEV batch over two fiscal years), word for word; only a
 * failure without one (the network) gets spec §5's "Export failed. Please try again."
 */
export async function downloadExport(options: ExportOptions): Promise<ExportOutcome> {
  const started = performance.now();
  let res: Response;
  let blob: Blob;
  try {
    res = await apiFetch(exportUrl(options));
    blob = await res.blob();
  } catch (err) {
    console.warn('export failed', err);
    return { saved: false, message: err instanceof ApiError && err.code ? err.userMessage : EXPORT_FAILED };
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filenameOf(res, `${options.name || 'receipts_export'}.${options.format}`);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  const rows = Number(res.headers.get('x-export-rows'));
  trackExport({
    format: options.format,
    preset: options.preset,
    rowCount: Number.isFinite(rows) && rows > 0 ? rows : (options.ids?.length ?? 0),
    durationMs: performance.now() - started,
  });
  return { saved: true, note: leftOut(res, options.format) };
}

/** The home page's sample result as a workbook, in the currency shown. */
export const sampleExportUrl = (currency: string) => `/api/export/sample?currency=${encodeURIComponent(currency)}`;
