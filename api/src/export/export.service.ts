import type { Writable } from 'node:stream';
import {
  ACCOUNTING_PRESETS,
  EXPORT_COLUMNS,
  EXPORT_ERRORS,
  LARGE_EXPORT_WARNING,
  csvLine,
  exportRow,
  sheetNamesOf,
  type ExportRequest,
  type ExportSource,
} from '@receipts/common';
import { schema, toReceiptView, type Database, type Logger, type ReceiptFields } from '@receipts/infra';
import { and, asc, count, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { HttpError, notFound } from '../http-error.js';
import { receiptScope } from '../library/receipt-scope.js';
import type { Owner } from '../session.js';
import { roomIn, writeWorkbook } from './workbook.writer.js';

const { uploads, receipts } = schema;

/**
 * Receipts read per query. A page (and the next one, read ahead) must die young: at 1,000 they
 * outlived the young generation and the export's peak RSS went from +30 MB to +150 MB.
 */
const PAGE_SIZE = 500;
/** Data rows one xlsx sheet holds (1,048,576 rows less the header). */
const XLSX_MAX_ROWS = 1_048_575;

/** A receipt the QuickBooks and Xero files can carry: a real-looking day and a total. */
const importable = and(isNotNull(receipts.total), sql`${receipts.date} ~ '^\\d{4}-\\d{2}-\\d{2}$'`)!;

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
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  /**
   * Everything that can be refused is checked here, before the first byte is sent: once the
   * file streams, the status line is gone.
   */
  async prepare(owner: Owner, request: ExportRequest): Promise<PreparedExport> {
    const scope = receiptScope(owner, request, request.ids);
    const [counts] = await this.db
      .select({
        total: count(),
        valid: sql<number>`count(*) FILTER (WHERE ${receipts.valid})`.mapWith(Number),
        importable: sql<number>`count(*) FILTER (WHERE ${receipts.valid} AND ${importable})`.mapWith(Number),
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(scope);
    const { total, valid } = counts!;
    if (request.ids && total < request.ids.length) throw notFound('Some of the selected receipts were not found. Reload the list and try again.');
    if (total === 0) throw new HttpError(400, 'NOTHING_TO_EXPORT', EXPORT_ERRORS.nothing);
    if (total > LARGE_EXPORT_WARNING) this.log.warn({ receipts: total }, 'large export');

    const pages = (valid: boolean, extra?: SQL) => this.pages(and(scope, eq(receipts.valid, valid), extra)!);
    if (request.format === 'xlsx') {
      if (valid > XLSX_MAX_ROWS || total - valid > XLSX_MAX_ROWS) throw new HttpError(400, 'VALIDATION_FAILED', 'Range exceeds format limit');
      return {
        filename: `${request.name}.xlsx`,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
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
    if (counts!.importable === 0) throw nothingValid(total, preset.label);
    const dateFormat = request.dateFormat ?? preset.defaultDateFormat;
    return {
      ...csv,
      rows: counts!.importable,
      skipped: valid - counts!.importable,
      write: (out) => writeCsv(out, preset.columns, pages(true, importable), (source) => preset.line(source, dateFormat)),
    };
  }

  /**
   * The scope's receipts in upload order, a page per query, resuming after the last row seen.
   * The next page is asked for before this one is handed out, so the database works while the
   * file is written.
   */
  private async *pages(where: SQL): AsyncGenerator<ExportSource[]> {
    let pending = this.page(where, null);
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) return;
      const last = rows.at(-1)!;
      const more = rows.length === PAGE_SIZE;
      if (more) pending = this.page(where, { at: last.at, id: last.uploadId });
      const sources = rows.map((r) => ({ filename: r.filename, receipt: toReceiptView(r) }));
      // Only the views stay alive while the page is written.
      rows.length = 0;
      yield sources;
      if (!more) return;
    }
  }

  /**
   * One page as plain rows already in the shape of a receipt view's fields: a raw query skips
   * the ORM's per-field mapping, a fifth of an export's database time.
   */
  private async page(where: SQL, after: Cursor | null): Promise<PageRow[]> {
    const money = (column: typeof receipts.total) => sql`${column}::float8`;
    const result = await this.db.execute(sql`
      SELECT ${receipts.id} AS "id", ${receipts.merchantName} AS "merchantName", ${receipts.date} AS "date",
             ${receipts.time} AS "time", ${receipts.currency} AS "currency",
             ${money(receipts.subtotal)} AS "subtotal", ${money(receipts.tax)} AS "tax", ${money(receipts.tip)} AS "tip",
             ${money(receipts.discount)} AS "discount", ${money(receipts.total)} AS "total",
             ${receipts.paymentMethod} AS "paymentMethod", ${receipts.category} AS "category",
             ${receipts.receiptNumber} AS "receiptNumber", ${receipts.tin} AS "tin", ${receipts.quality} AS "quality",
             ${receipts.items} AS "items", left(${receipts.rawText}, 201) AS "rawText", ${receipts.issues} AS "issues",
             ${receipts.valid} AS "valid", ${uploads.filename} AS "filename",
             ${uploads.createdAt}::text AS "at", ${uploads.id} AS "uploadId"
      FROM ${receipts} INNER JOIN ${uploads} ON ${uploads.id} = ${receipts.uploadId}
      WHERE ${after ? and(where, sql`(${uploads.createdAt}, ${uploads.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`) : where}
      ORDER BY ${uploads.createdAt}, ${uploads.id}
      LIMIT ${PAGE_SIZE}`);
    return (result as unknown as { rows: PageRow[] }).rows;
  }
}

/** A receipt's view fields, its file name, and where the page stopped (the upload's creation time as text keeps its microseconds). */
type PageRow = ReceiptFields & { filename: string; at: string; uploadId: string };

interface Cursor {
  at: string;
  id: string;
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
