import { ACCOUNTING_PRESETS, type ExportPreset } from './accounting-presets.js';
import { datevFile } from './datev.format.js';
import { EXPORT_COLUMNS, exportRowValues } from './export-rows.js';
import { csvFile, type ImportFile } from './import-file.js';
import { ofxFile } from './ofx.format.js';
import { qifFile } from './qif.format.js';

/** The file each preset downloads as (besides the workbook of `generic`). */
export const EXPORT_FILES: Readonly<Record<ExportPreset, ImportFile>> = {
  // The Receipts sheet's columns, for Excel: every valid receipt.
  generic: csvFile({ columns: EXPORT_COLUMNS, defaultDateFormat: 'YYYY-MM-DD', line: exportRowValues }, { carries: 'valid', byteOrderMark: true }),
  // A bank-statement CSV's amounts have no currency: the account books in one.
  quickbooks: csvFile(ACCOUNTING_PRESETS.quickbooks, { currencies: 'single' }),
  xero: csvFile(ACCOUNTING_PRESETS.xero, { currencies: 'single' }),
  ynab: csvFile(ACCOUNTING_PRESETS.ynab, { currencies: 'single' }),
  firefly: csvFile(ACCOUNTING_PRESETS.firefly),
  ofx: ofxFile,
  qif: qifFile,
  datev: datevFile,
};
