import { EXPORT_ERRORS, type ExportFormat, type ExportPreset } from '@receipts/common';
import { ApiError, apiFetch } from './api.js';
import { trackExport } from './analytics.js';

export type { ExportFormat, ExportPreset };

export const NO_COMPLETED_RECEIPTS = EXPORT_ERRORS.nothing;
export const EXPORT_FAILED = 'Export failed. Please try again.';

export function exportUrl(options: { format: ExportFormat; preset: ExportPreset; ids?: readonly string[]; name?: string }): string {
  const query = new URLSearchParams({ format: options.format, preset: options.preset });
  if (options.ids?.length) query.set('ids', options.ids.join(','));
  if (options.name) query.set('name', options.name);
  return `/api/export?${query.toString()}`;
}

function filenameOf(res: Response, fallback: string): string {
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Downloads a workbook of the given receipts (or all completed ones) through the browser. The
 * outcome is a message for the person: null on success, or spec §5's wording.
 */
export async function downloadExport(options: { format: ExportFormat; preset: ExportPreset; ids?: readonly string[]; name?: string }): Promise<string | null> {
  const started = performance.now();
  let res: Response;
  try {
    res = await apiFetch(exportUrl(options));
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && err.userMessage === NO_COMPLETED_RECEIPTS) return NO_COMPLETED_RECEIPTS;
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
