import { EXPORT_ERRORS, type ExportFormat, type ExportPreset } from '@receipts/common';
import { ApiError, apiFetch } from './api.js';
import { trackExport } from './analytics.js';

export type { ExportFormat, ExportPreset };

export const NO_COMPLETED_RECEIPTS = EXPORT_ERRORS.nothing;
export const EXPORT_FAILED = 'Export failed. Please try again.';

/** The library filters an export of "all" receipts keeps to (a date range, a search, a category). */
export interface ExportFilter {
  q?: string;
  from?: string;
  to?: string;
  category?: string;
}

export interface ExportOptions {
  format: ExportFormat;
  preset: ExportPreset;
  ids?: readonly string[];
  filter?: ExportFilter;
  name?: string;
}

export function exportUrl(options: ExportOptions): string {
  const query = new URLSearchParams({ format: options.format, preset: options.preset });
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

/**
 * Downloads a workbook, an import file or the export pack of the given receipts (or all
 * completed ones) through the browser. The outcome is a message for the person: null on
 * success, spec §5's wording, or the server's reason (mixed currencies, a DATEV batch over two
 * fiscal years).
 */
export async function downloadExport(options: ExportOptions): Promise<string | null> {
  const started = performance.now();
  let res: Response;
  try {
    res = await apiFetch(exportUrl(options));
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.userMessage || EXPORT_FAILED;
    console.warn('export failed', err);
    return EXPORT_FAILED;
  }
  const blob = await res.blob();
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
  return null;
}
