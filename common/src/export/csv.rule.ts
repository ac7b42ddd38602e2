import type { CellValue } from './export-rows.js';
import { formulaSafe } from './formula-text.rule.js';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula gets a leading apostrophe; numbers (and amounts already
 * written as text, such as "-10.40") are written as they are.
 */
export function csvField(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = formulaSafe(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV record with its CRLF line end. */
export function csvLine(values: readonly CellValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
