import { renderIssue } from '../extraction/issue-codes.rules.js';
import { openFlagsOfView } from '../extraction/validation.rules.js';
import { APPROVAL_LABELS, CLEARED_APPROVALS } from '../approval.rule.js';
import type { ExportSource } from './export-rows.js';

/** The note of an export pack naming the receipts its import file left out (the workbook holds them all). */
export const PACK_LEFT_OUT_NOTE = 'left-out-of-import.txt';

/** One line of text, whatever the user named the file or the receipt says. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

const receipts = (n: number) => `${n} receipt${n === 1 ? '' : 's'}`;

/** The note's opening: how many receipts the import file (`label`) left out, and where they are instead. */
export function leftOutHeading(count: number, label: string): string {
  return `${receipts(count)} ${count === 1 ? 'is' : 'are'} not in the ${label} file. The workbook lists every receipt, these on its Validation Issues sheet or without a date or total:\r\n\r\n`;
}

/**
 * Why one receipt is not in the import file, on a line of its own: it needs review (its flags),
 * it is not approved, or it is ready but lacks the date or total an accounting import needs.
 */
export function leftOutLine({ filename, receipt, approval }: ExportSource): string {
  const what = `${oneLine(filename ?? 'unknown file')} (${receipt.date ?? 'no date'}, ${oneLine(receipt.merchantName ?? 'unknown merchant')})`;
  if (!receipt.valid) {
    const open = openFlagsOfView(receipt).map(renderIssue);
    return `${what}: needs review${open.length ? ` (${open.map(oneLine).join('; ')})` : ''}.\r\n`;
  }
  if (approval && !CLEARED_APPROVALS.includes(approval.status)) return `${what}: not approved (${APPROVAL_LABELS[approval.status].toLowerCase()}).\r\n`;
  const lacks = [receipt.date ? null : 'date', receipt.total == null ? 'total' : null].filter(Boolean);
  return `${what}: no ${lacks.length ? lacks.join(' and no ') : 'date in a form the import reads'}.\r\n`;
}

/** The name of one currency's file when a selection in several currencies is split: `March-EUR.csv`. */
export const currencyFileName = (name: string, currency: string, extension: string) => `${name}-${currency}.${extension}`;
