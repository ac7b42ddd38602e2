import { once } from 'node:events';
import type { Writable } from 'node:stream';
import {
  APPROVAL_COLUMNS,
  approvalValues,
  CONVERSION_COLUMNS,
  conversionValues,
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
  type ExchangeRates,
  type ExportSource,
} from '@receipts/common';
import { IssueSpool } from './issue.spool.js';
import { XlsxWriter, type FormulaCell, type XlsxSheet, type XlsxValue } from './xlsx.writer.js';

/** Pages of receipts, valid ones and ones with issues together, read from the database one page at a time. */
export type ReceiptPages = AsyncIterable<ExportSource[]>;

/** Receipts per page read back from the spool of the ones with issues. */
const SPOOL_PAGE = 500;

/** Where a receipt's original lies beside the workbook (the export pack), if it is there. */
export type OriginalLink = (source: ExportSource) => string | undefined;

/** The home currency the Receipts sheet adds each total in, and the operator's rates to convert with. */
export interface HomeCurrency {
  currency: string;
  rates: ExchangeRates;
}

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

interface SheetLayout {
  columns: readonly string[];
  /** Per column: how its cells are written; `home`: money in the home currency, whatever the receipt's. */
  kinds: Array<'money' | 'home' | 'date' | 'percent' | 'text'>;
}

function layoutOf(columns: readonly string[], percent: readonly string[]): SheetLayout {
  return {
    columns,
    kinds: columns.map((c) =>
      c === 'converted_total' ? 'home' : isMoneyColumn(c) ? 'money' : c === 'date' || c === 'rate_date' ? 'date' : percent.includes(c) ? 'percent' : 'text',
    ),
  };
}

const ISSUES = layoutOf(ISSUE_COLUMNS, []);
const ISSUES_WITH_APPROVAL = layoutOf([...ISSUE_COLUMNS, ...APPROVAL_COLUMNS], []);
const SUMMARY = layoutOf(SUMMARY_COLUMNS, []);

/** The Receipts sheet's columns: the export row, then the conversion's and the approval's when asked for. */
const receiptsLayout = (home: boolean, approval: boolean) =>
  layoutOf([...EXPORT_COLUMNS, ...(home ? CONVERSION_COLUMNS : []), ...(approval ? APPROVAL_COLUMNS : [])], ['quality']);

function widthOf(column: string): number {
  if (column === 'rawText') return 60;
  if (column === 'filename' || column === 'merchantName' || column === 'issues' || column.endsWith('_desc')) return 28;
  if (column === 'converted_currency' || column === 'converted_total' || column === 'approval') return 16;
  if (column === 'approval_comment') return 40;
  return 12;
}

/** The style of each kind of cell, made once per workbook; money per currency as it comes. */
class Styles {
  readonly header: number;
  readonly date: number;
  readonly percent: number;
  private readonly money = new Map<string, number>();

  constructor(private readonly workbook: XlsxWriter) {
    this.header = workbook.style({ bold: true });
    this.date = workbook.style({ numFmt: 'yyyy-mm-dd' });
    this.percent = workbook.style({ numFmt: '0%' });
  }

  moneyIn(currency: string): number {
    let id = this.money.get(currency);
    if (id === undefined) this.money.set(currency, (id = this.workbook.style({ numFmt: moneyNumFmt(currency) })));
    return id;
  }
}

function addSheet(workbook: XlsxWriter, styles: Styles, name: string, layout: SheetLayout): XlsxSheet {
  const sheet = workbook.addSheet(name, { widths: layout.columns.map(widthOf), frozenRows: 1 });
  sheet.addRow(layout.columns, layout.columns.map(() => styles.header));
  return sheet;
}

const valuesOf = (layout: SheetLayout, row: ExportRow): CellValue[] => layout.columns.map((column) => row[column] ?? null);

/** Text as a formula's string argument: quotes doubled, at most the 255 characters Excel takes. */
const formulaText = (text: string) => [...text].slice(0, 255).join('').replace(/"/g, '""');

/**
 * The file name as a link to the original beside the workbook. A HYPERLINK formula rather than
 * a hyperlink: a hyperlink is a relationship of the sheet, listed after all its rows; a formula is
 * written with its row. Excel and LibreOffice open the relative path from the workbook's folder.
 */
function linkCell(text: string, target: string): FormulaCell {
  return { formula: `HYPERLINK("${formulaText(target)}","${formulaText(text)}")`, result: [...text].slice(0, 255).join('') };
}

function writeRow(sheet: XlsxSheet, styles: Styles, layout: SheetLayout, row: readonly CellValue[], currency: string, link?: string, home?: string): void {
  const values: XlsxValue[] = new Array(row.length);
  const ids: number[] = new Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    // An absent value makes no cell at all, which keeps the file small.
    if (value === null || value === undefined) continue;
    const kind = layout.kinds[i];
    if (typeof value === 'number') {
      values[i] = value;
      ids[i] = kind === 'money' ? styles.moneyIn(currency) : kind === 'home' && home ? styles.moneyIn(home) : kind === 'percent' ? styles.percent : 0;
    } else if (i === 0 && link) {
      values[i] = linkCell(value, link);
      ids[i] = 0;
    } else if (kind === 'date') {
      const day = dayCell(value);
      values[i] = day;
      ids[i] = day instanceof Date ? styles.date : 0;
    } else {
      values[i] = fitCellText(value);
      ids[i] = kind === 'percent' ? styles.percent : 0;
    }
  }
  sheet.addRow(values, ids);
}

/** What a workbook adds to the spec's: links to the originals, a home currency, the Approval columns (a team workspace's). */
export interface WorkbookOptions {
  linkOf?: OriginalLink;
  home?: HomeCurrency;
  approval?: boolean;
}

/**
 * Streams the spec §7 workbook to `out`: the valid receipts, then the ones with issues, then
 * the summary of exactly those rows. The receipts are read once: the ones with issues are set
 * aside (IssueSpool) while the first sheet is written, since the zip holds one open entry at a
 * time. Each page waits for room in `out`, so memory stays flat whatever the number of receipts.
 */
export async function writeWorkbook(out: Writable, sheetNames: readonly [string, string, string], pages: ReceiptPages, options: WorkbookOptions = {}): Promise<void> {
  const { linkOf, home, approval = false } = options;
  const workbook = new XlsxWriter(out, 'Receipts to Excel');
  const styles = new Styles(workbook);
  const tally = emptyTally();
  const spool = new IssueSpool();
  const receipts = receiptsLayout(Boolean(home), approval);
  const issues = approval ? ISSUES_WITH_APPROVAL : ISSUES;
  const valuesOfReceipt = (source: ExportSource) => [
    ...exportRowValues(source),
    ...(home ? conversionValues(source, home.currency, home.rates) : []),
    ...(approval ? approvalValues(source) : []),
  ];
  const valuesOfIssue = (source: ExportSource) => [...valuesOf(ISSUES, issueRow(source)), ...(approval ? approvalValues(source) : [])];
  try {
    const receiptsSheet = addSheet(workbook, styles, sheetNames[0], receipts);
    for await (const page of pages) {
      for (const source of drain(page)) {
        tallyReceipt(tally, source.receipt);
        if (source.receipt.valid === false) await spool.push(source);
        else writeRow(receiptsSheet, styles, receipts, valuesOfReceipt(source), source.receipt.currency ?? 'USD', linkOf?.(source), home?.currency);
      }
      await receiptsSheet.caughtUp();
      await roomIn(out);
    }
    await receiptsSheet.end();

    const issuesSheet = addSheet(workbook, styles, sheetNames[1], issues);
    for await (const page of spool.pages(SPOOL_PAGE)) {
      for (const source of drain(page)) {
        writeRow(issuesSheet, styles, issues, valuesOfIssue(source), source.receipt.currency ?? 'USD', linkOf?.(source));
      }
      await issuesSheet.caughtUp();
      await roomIn(out);
    }
    await issuesSheet.end();

    const summarySheet = addSheet(workbook, styles, sheetNames[2], SUMMARY);
    for (const row of summaryRows(tally)) writeRow(summarySheet, styles, SUMMARY, valuesOf(SUMMARY, row), 'USD');
    await workbook.finish();
  } catch (err) {
    workbook.abandon();
    throw err;
  } finally {
    await spool.close();
  }
}
