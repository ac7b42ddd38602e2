import type { Writable } from 'node:stream';
import {
  ACCOUNTING_PRESETS,
  DEFAULT_SHEET_NAMES,
  EXPORT_COLUMNS,
  EXPORT_ERRORS,
  LARGE_EXPORT_WARNING,
  csvLine,
  exportRow,
  SAMPLE_EXPORT_NAME,
  sampleExport,
  sheetNamesOf,
  type ExportRequest,
  type ExportSource,
} from '@receipts/common';
import { toReceiptView, type Logger, type ReceiptRepository, type ReceiptScope } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';
import { roomIn, writeWorkbook } from './workbook.writer.js';

/**
 * Receipts read per query. A page (and the next one, read ahead) must die young: at 1,000 they
 * outlived the young generation and the export's peak RSS went from +30 MB to +150 MB.
 */
const PAGE_SIZE = 500;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Data rows one xlsx sheet holds (1,048,576 rows less the header). */
const XLSX_MAX_ROWS = 1_048_575;

export interface PreparedExport {
  filename: string;
  contentType: string;
  /** Receipts in the file, and (presets) valid receipts left out for lack of a date or total. */
  rows: number;
  withIssues: number;
  skipped: number;
  write(out: Writable): Promise<void>;
}

/** Export: the spec §7 workbook and the CSV presets, streamed from the database page by page. */
export class ExportService {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly log: Logger,
  ) {}

  /**
   * Everything that can be refused is checked here, before the first byte is sent: once the
   * file streams, the status line is gone.
   */
  async prepare(owner: Owner, request: ExportRequest): Promise<PreparedExport> {
    const scope = this.receipts.scope(owner, request, request.ids);
    const counts = await this.receipts.exportCounts(scope);
    const { total, valid } = counts;
    if (request.ids && total < request.ids.length) throw notFound('Some of the selected receipts were not found. Reload the list and try again.');
    if (total === 0) throw new HttpError(400, 'NOTHING_TO_EXPORT', EXPORT_ERRORS.nothing);
    if (total > LARGE_EXPORT_WARNING) this.log.warn({ receipts: total }, 'large export');

    const pages = (valid: boolean, importableOnly = false) => this.pages(scope, { valid, importableOnly });
    if (request.format === 'xlsx') {
      if (valid > XLSX_MAX_ROWS || total - valid > XLSX_MAX_ROWS) throw new HttpError(400, 'VALIDATION_FAILED', 'Range exceeds format limit');
      return {
        filename: `${request.name}.xlsx`,
        contentType: XLSX_TYPE,
        rows: valid,
        withIssues: total - valid,
        skipped: 0,
        write: (out) => writeWorkbook(out, sheetNamesOf(request), (v) => pages(v)),
      };
    }

    const csv = { filename: `${request.name}.csv`, contentType: 'text/csv; charset=utf-8', withIssues: total - valid };
    if (request.preset === 'generic') {
      if (valid === 0) throw nothingValid(total);
      return {
        ...csv,
        rows: valid,
        skipped: 0,
        write: (out) =>
          writeCsv(out, EXPORT_COLUMNS, pages(true), (source) => {
            const row = exportRow(source);
            return EXPORT_COLUMNS.map((c) => row[c] ?? null);
          }, true),
      };
    }
    const preset = ACCOUNTING_PRESETS[request.preset];
    if (counts.importable === 0) throw nothingValid(total, preset.label);
    const dateFormat = request.dateFormat ?? preset.defaultDateFormat;
    return {
      ...csv,
      rows: counts.importable,
      skipped: valid - counts.importable,
      write: (out) => writeCsv(out, preset.columns, pages(true, true), (source) => preset.line(source, dateFormat)),
    };
  }

  /** The home page's sample result as a workbook, in `currency` at the demo rates: no account or receipts needed. */
  sample(currency: string): PreparedExport {
    const sources = sampleExport(currency);
    return {
      filename: `${SAMPLE_EXPORT_NAME}.xlsx`,
      contentType: XLSX_TYPE,
      rows: sources.length,
      withIssues: 0,
      skipped: 0,
      write: (out) =>
        writeWorkbook(out, [DEFAULT_SHEET_NAMES.receipts, DEFAULT_SHEET_NAMES.issues, DEFAULT_SHEET_NAMES.summary], async function* (valid) {
          if (valid) yield sources;
        }),
    };
  }

  /**
   * The scope's receipts in upload order, a page per query, resuming after the last row seen.
   * The next page is asked for before this one is handed out, so the database works while the
   * file is written.
   */
  private async *pages(scope: ReceiptScope, pick: { valid: boolean; importableOnly: boolean }): AsyncGenerator<ExportSource[]> {
    let pending = this.receipts.exportPage(scope, pick, null, PAGE_SIZE);
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) return;
      const last = rows.at(-1)!;
      const more = rows.length === PAGE_SIZE;
      if (more) pending = this.receipts.exportPage(scope, pick, { at: last.at, id: last.uploadId }, PAGE_SIZE);
      const sources = rows.map((r) => ({ filename: r.filename, receipt: toReceiptView(r) }));
      // Only the views stay alive while the page is written.
      rows.length = 0;
      yield sources;
      if (!more) return;
    }
  }
}

function nothingValid(total: number, product?: string): HttpError {
  const target = product ? ` with a date and a total for ${product}` : '';
  return new HttpError(
    400,
    'NOTHING_TO_EXPORT',
    `No valid receipts${target} to export: ${total} receipt${total === 1 ? ' has' : 's have'} validation issues. Correct them in the library, or export the workbook to see them.`,
  );
}

async function writeCsv(
  out: Writable,
  columns: readonly string[],
  pages: AsyncIterable<ExportSource[]>,
  line: (source: ExportSource) => Array<string | number | null> | null,
  byteOrderMark = false,
): Promise<void> {
  // Excel reads a CSV as UTF-8 only with the mark; the accounting imports want none.
  out.write(`${byteOrderMark ? '\uFEFF' : ''}${csvLine(columns)}`);
  for await (const page of pages) {
    let chunk = '';
    for (const source of page) {
      const values = line(source);
      if (values) chunk += csvLine(values);
    }
    out.write(chunk);
    await roomIn(out);
  }
  await new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.end();
  });
}
