import { once } from 'node:events';
import type { Writable } from 'node:stream';
import {
  EXPORT_COLUMNS,
  ISSUE_COLUMNS,
  SUMMARY_COLUMNS,
  emptyTally,
  exportRowValues,
  fitCellText,
  isMoneyColumn,
  issueRow,
  moneyNumFmt,
  summaryRows,
  tallyReceipt,
  type CellValue,
  type ExportRow,
  type ExportSource,
} from '@receipts/common';
import ExcelJS from 'exceljs';
import { IssueSpool } from './issue.spool.js';

/** Pages of receipts, valid ones and ones with issues together, read from the database one page at a time. */
export type ReceiptPages = AsyncIterable<ExportSource[]>;

/** Receipts per page read back from the spool of the ones with issues. */
const SPOOL_PAGE = 500;

/** Where a receipt's original lies beside the workbook (the export pack), if it is there. */
export type OriginalLink = (source: ExportSource) => string | undefined;

/** Bytes the client may have unread before the export waits: the network drains while the next page is written. */
const OUT_BACKLOG_MAX = 1024 * 1024;

/** Resolves once `out` has room again; rejects when the client went away, which ends the export. */
export async function roomIn(out: Writable): Promise<void> {
  if (out.destroyed) throw new Error('client went away');
  if (out.writableLength <= OUT_BACKLOG_MAX) return;
  const ac = new AbortController();
  await Promise.race([
    once(out, 'drain', { signal: ac.signal }),
    once(out, 'close', { signal: ac.signal }).then(() => {
      throw new Error('client went away');
    }),
  ]).finally(() => ac.abort());
}

/** The stream an exceljs sheet writes into: archiver's PassThrough (readable-stream 2, so only its `_writableState` tells). */
interface ZipEntryInput {
  _writableState?: { needDrain: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Waits until the zip has taken in what the sheet wrote. exceljs pushes sheet XML into the zip
 * without backpressure, so when deflate falls behind (or the entry has not started yet) the XML
 * piles up in memory; the sheet stream's `pipes` (an exceljs internal) say when it caught up.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: ZipEntryInput[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    if (pipe._writableState?.needDrain) await new Promise<void>((resolve) => pipe.once('drain', resolve));
  }
}

/**
 * Hands out a page's receipts, letting go of each once taken: a receipt written early in a page
 * can be collected young instead of surviving into the old generation with the rest of the page.
 */
function* drain<T>(page: T[]): Generator<T> {
  for (let i = 0; i < page.length; i++) {
    const item = page[i]!;
    page[i] = undefined as T;
    yield item;
  }
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as a date cell; anything else stays the text it is. */
function dayCell(value: string): Date | string {
  const m = DAY.exec(value);
  if (!m) return value;
  const [year, month, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(Date.UTC(year, month, day));
  // 2023-02-30 would roll over into March: such a day is not a date.
  return date.getUTCMonth() === month && date.getUTCDate() === day ? date : value;
}

// exceljs looks styles up by object identity: one shared object per format keeps that cheap.
const PLAIN: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd' };
const PERCENT_STYLE: Partial<ExcelJS.Style> = { numFmt: '0%' };
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true } };
const moneyStyles = new Map<string, Partial<ExcelJS.Style>>();
function moneyStyle(currency: string): Partial<ExcelJS.Style> {
  let style = moneyStyles.get(currency);
  if (!style) moneyStyles.set(currency, (style = { numFmt: moneyNumFmt(currency) }));
  return style;
}

interface SheetLayout {
  columns: readonly string[];
  /** Per column: how its cells are written. */
  kinds: Array<'money' | 'date' | 'percent' | 'text'>;
}

function layoutOf(columns: readonly string[], percent: readonly string[]): SheetLayout {
  return {
    columns,
    kinds: columns.map((c) => (isMoneyColumn(c) ? 'money' : c === 'date' ? 'date' : percent.includes(c) ? 'percent' : 'text')),
  };
}

const RECEIPTS = layoutOf(EXPORT_COLUMNS, ['quality']);
const ISSUES = layoutOf(ISSUE_COLUMNS, []);
const SUMMARY = layoutOf(SUMMARY_COLUMNS, []);

function widthOf(column: string): number {
  if (column === 'rawText') return 60;
  if (column === 'filename' || column === 'merchantName' || column === 'issues' || column.endsWith('_desc')) return 28;
  return 12;
}

function addSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, name: string, layout: SheetLayout): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = layout.columns.map((key) => ({ key, width: widthOf(key) }));
  const header = sheet.addRow([...layout.columns]);
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  header.commit();
  return sheet;
}

const valuesOf = (layout: SheetLayout, row: ExportRow): CellValue[] => layout.columns.map((column) => row[column] ?? null);

/** Text as a formula's string argument: quotes doubled, at most the 255 characters Excel takes. */
const formulaText = (text: string) => [...text].slice(0, 255).join('').replace(/"/g, '""');

/**
 * The file name as a link to the original beside the workbook. A HYPERLINK formula rather than
 * a hyperlink: exceljs keeps every hyperlink of a sheet in memory until the sheet ends, a
 * formula is written and gone; Excel and LibreOffice open the relative path from the workbook's folder.
 */
function linkCell(text: string, target: string): ExcelJS.CellFormulaValue {
  return { formula: `HYPERLINK("${formulaText(target)}","${formulaText(text)}")`, result: [...text].slice(0, 255).join(''), date1904: false };
}

function writeRow(sheet: ExcelJS.Worksheet, layout: SheetLayout, row: readonly CellValue[], currency: string, link?: string): void {
  // An absent value makes no cell at all (undefined), which keeps the file small and skips the style lookup.
  const values: Array<CellValue | Date | ExcelJS.CellFormulaValue | undefined> = row.map((value, i) => {
    if (value === null) return undefined;
    if (i === 0 && link && typeof value === 'string') return linkCell(value, link);
    if (typeof value !== 'string') return value;
    return layout.kinds[i] === 'date' ? dayCell(value) : fitCellText(value);
  });
  const written = sheet.addRow(values);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    const kind = layout.kinds[i];
    written.getCell(i + 1).style =
      kind === 'money' && typeof value === 'number'
        ? moneyStyle(currency)
        : kind === 'date' && value instanceof Date
          ? DATE_STYLE
          : kind === 'percent'
            ? PERCENT_STYLE
            : PLAIN;
  }
  written.commit();
}

/**
 * Streams the spec §7 workbook to `out`: the valid receipts, then the ones with issues, then
 * the summary of exactly those rows. The receipts are read once: the ones with issues are set
 * aside (IssueSpool) while the first sheet is written, since the zip holds one open entry at a
 * time. Each page waits for room in `out`, so memory stays flat whatever the number of receipts.
 */
export async function writeWorkbook(out: Writable, sheetNames: readonly [string, string, string], pages: ReceiptPages, linkOf?: OriginalLink): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Receipts to Excel';
  const tally = emptyTally();
  const spool = new IssueSpool();
  try {
    const receiptsSheet = addSheet(workbook, sheetNames[0], RECEIPTS);
    for await (const page of pages) {
      for (const source of drain(page)) {
        tallyReceipt(tally, source.receipt);
        if (source.receipt.valid === false) await spool.push(source);
        else writeRow(receiptsSheet, RECEIPTS, exportRowValues(source), source.receipt.currency ?? 'USD', linkOf?.(source));
      }
      await zipCaughtUp(receiptsSheet);
      await roomIn(out);
    }
    receiptsSheet.commit();

    const issuesSheet = addSheet(workbook, sheetNames[1], ISSUES);
    for await (const page of spool.pages(SPOOL_PAGE)) {
      for (const source of drain(page)) {
        writeRow(issuesSheet, ISSUES, valuesOf(ISSUES, issueRow(source)), source.receipt.currency ?? 'USD', linkOf?.(source));
      }
      await zipCaughtUp(issuesSheet);
      await roomIn(out);
    }
    issuesSheet.commit();
  } finally {
    await spool.close();
  }

  const summarySheet = addSheet(workbook, sheetNames[2], SUMMARY);
  for (const row of summaryRows(tally)) writeRow(summarySheet, SUMMARY, valuesOf(SUMMARY, row), 'USD');
  summarySheet.commit();
  await workbook.commit();
}
