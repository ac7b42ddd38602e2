import { Parser } from 'htmlparser2';

/**
 * What turning an HTML body into text may cost. The conversion (html-to-text) builds a DOM and
 * lays every table out on a grid: its work grows with the elements, the nesting (it recurses)
 * and each table's spans, not with the body's length. A 746-byte body of ten cells spanning
 * 1000 × 1000 took 2.9 s. E-receipts sit far below these bounds (a few thousand elements,
 * tables of tens of rows, nesting of a dozen levels).
 */
export const HTML_WORK_LIMITS = {
  elements: 20_000,
  depth: 100,
  /** Per message: every table's cells by their spans, plus its grid's side squared (the layout is transposed as a square). */
  tableWork: 200_000,
} as const;

export type HtmlWorkExceeded = { exceeded: keyof typeof HTML_WORK_LIMITS; detail: string };

interface OpenTable {
  rows: number;
  /** The widest row so far, by its cells' column spans. */
  columns: number;
  /** The rows that row spans reach past the last row. */
  spannedRows: number;
  cellsArea: number;
  rowColumns: number;
}

/** A span as html-to-text reads it (`+attr || 1`), bounded so one absurd value cannot overflow the sum. */
function span(value: string | undefined): number {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 1e6) : 1;
}

/**
 * Measures an HTML body in one linear pass of the same tokenizer the conversion uses, stopping
 * at the first bound it passes: null when the conversion's work is bounded, else which bound.
 */
export function htmlWorkExceeded(html: string, limits: typeof HTML_WORK_LIMITS = HTML_WORK_LIMITS): HtmlWorkExceeded | null {
  let elements = 0;
  let depth = 0;
  let tableWork = 0;
  const tables: OpenTable[] = [];
  let exceeded: HtmlWorkExceeded | null = null;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (exceeded) return;
      elements++;
      depth++;
      const table = tables.at(-1);
      if (name === 'table') tables.push({ rows: 0, columns: 0, spannedRows: 0, cellsArea: 0, rowColumns: 0 });
      else if (name === 'tr' && table) {
        table.rows++;
        table.rowColumns = 0;
      } else if ((name === 'td' || name === 'th') && table) {
        const columns = span(attribs.colspan);
        const rows = span(attribs.rowspan);
        table.rowColumns += columns;
        table.columns = Math.max(table.columns, table.rowColumns);
        table.spannedRows = Math.max(table.spannedRows, table.rows + rows - 1);
        table.cellsArea += columns * rows;
        if (tableWork + table.cellsArea > limits.tableWork) exceeded = { exceeded: 'tableWork', detail: `a table's cells span more than ${limits.tableWork} grid cells` };
      }
      if (elements > limits.elements) exceeded = { exceeded: 'elements', detail: `more than ${limits.elements} elements` };
      else if (depth > limits.depth) exceeded = { exceeded: 'depth', detail: `elements nested more than ${limits.depth} deep` };
      if (exceeded) parser.pause();
    },
    onclosetag(name) {
      if (exceeded) return;
      depth--;
      if (name !== 'table') return;
      const table = tables.pop()!;
      const side = Math.max(table.rows, table.spannedRows, table.columns);
      tableWork += table.cellsArea + side * side;
      if (tableWork > limits.tableWork) {
        exceeded = { exceeded: 'tableWork', detail: `tables that lay out on more than ${limits.tableWork} grid cells` };
        parser.pause();
      }
    },
  });
  parser.end(html);
  return exceeded;
}
