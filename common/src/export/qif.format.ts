import { categoryLabel, formatDay, memoOf, spent } from './accounting-presets.js';
import { formulaSafe } from './formula-text.rule.js';
import type { ImportFile } from './import-file.js';

const CRLF = '\r\n';

/**
 * QIF is a line per field: a value keeps to one line, and is never a formula (the product that
 * imports it may export it to a spreadsheet).
 */
const qifText = (text: string) => formulaSafe(text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim());

/**
 * QIF (Quicken Interchange Format), a bank account's transactions: D date, T amount (negative:
 * money spent), P payee, M memo, L category, ^ ends the record. Quicken (US) reads MM/DD/YYYY,
 * the default; other importers ask for the layout. QIF has no currency: one per file.
 */
export const qifFile: ImportFile = {
  extension: 'qif',
  contentType: 'application/qif',
  encoding: 'utf-8',
  carries: 'importable',
  currencies: 'single',
  defaultDateFormat: 'MM/DD/YYYY',
  open: ({ dateFormat }) => ({
    head: `!Type:Bank${CRLF}`,
    record(source) {
      const { receipt } = source;
      const date = formatDay(receipt.date, dateFormat);
      const amount = spent(source);
      if (!date || amount === null) return null;
      const memo = memoOf(source);
      const fields = [`D${date}`, `T${amount}`, `P${qifText(receipt.merchantName || 'Receipt')}`];
      if (memo) fields.push(`M${qifText(memo)}`);
      fields.push(`L${categoryLabel(receipt.category)}`, '^');
      return fields.join(CRLF) + CRLF;
    },
    tail: () => '',
  }),
};
