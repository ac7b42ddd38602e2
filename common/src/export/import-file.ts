import type { AccountingPreset, DateFormat } from './accounting-presets.js';
import { csvLine } from './csv.rule.js';
import type { DatevSettings } from './datev-settings.schema.js';
import type { ExportSource } from './export-rows.js';

/** What a file's opening and closing lines need to know of the receipts it carries. */
export interface ImportContext {
  /** The receipts' currency: for a file that holds one currency, the one they all share. */
  currency: string;
  /** The first and last receipt day (`YYYY-MM-DD`) in the file; null when it carries none. */
  from: string | null;
  to: string | null;
  dateFormat: DateFormat;
  now: Date;
  datev: DatevSettings;
  /** The DATEV expense account of each of the owner's own categories that has one. */
  categoryAccounts: Readonly<Record<string, string>>;
}

/** One file being written: its opening text, a receipt's record (null: left out), its closing text. */
export interface ImportWriter {
  head: string;
  record(source: ExportSource): string | null;
  tail(): string;
}

/** A file another product imports, written as a stream of receipts (the rows computed here, the streaming in the api). */
export interface ImportFile {
  extension: 'csv' | 'ofx' | 'qif';
  contentType: string;
  /** How the text is written out: UTF-8, or Windows-1252 for DATEV. */
  encoding: 'utf-8' | 'windows-1252';
  /** Which receipts it carries: every valid one, or the valid ones with a real date and a total. */
  carries: 'valid' | 'importable';
  /** `single`: one currency per file (the product books in one); `EUR`: only euros. */
  currencies: 'any' | 'single' | 'EUR';
  defaultDateFormat: DateFormat;
  open(context: ImportContext): ImportWriter;
}

/** A CSV layout as a file: its header line, then a line per receipt. */
export function csvFile(preset: AccountingPreset, options: Partial<Pick<ImportFile, 'currencies' | 'carries'>> & { byteOrderMark?: boolean } = {}): ImportFile {
  return {
    extension: 'csv',
    contentType: 'text/csv; charset=utf-8',
    encoding: 'utf-8',
    carries: options.carries ?? 'importable',
    currencies: options.currencies ?? 'any',
    defaultDateFormat: preset.defaultDateFormat,
    open: ({ dateFormat }) => ({
      // Excel reads a CSV as UTF-8 only with the mark; the accounting imports want none.
      head: `${options.byteOrderMark ? '\uFEFF' : ''}${csvLine(preset.columns)}`,
      record(source) {
        const values = preset.line(source, dateFormat);
        return values ? csvLine(values) : null;
      },
      tail: () => '',
    }),
  };
}
