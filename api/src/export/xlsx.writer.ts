import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import archiver from 'archiver';

/**
 * A streaming xlsx writer for row-by-row sheets: each row becomes its SpreadsheetML text at once
 * and the text goes to the zip in chunks. exceljs's streaming writer builds a row, cell and style
 * model per cell before rendering it; for an export of 100,000 receipts of 96 columns that model
 * was most of the export's CPU. Only what the export's workbook uses is here: text, numbers,
 * dates, formulas with a text result, number formats, a bold header, column widths and frozen rows.
 */

/** A formula whose result is text (the HYPERLINK to an original). */
export interface FormulaCell {
  formula: string;
  result: string;
}

/** A cell's value; undefined writes no cell. */
export type XlsxValue = string | number | Date | FormulaCell | undefined;

export interface XlsxStyle {
  numFmt?: string;
  bold?: boolean;
}

export interface XlsxSheetOptions {
  /** Width of each column, in Excel's character units. */
  widths: readonly number[];
  /** Rows kept in view while scrolling (the header). */
  frozenRows?: number;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Formats Excel knows by number: no numFmt element is written for them. */
const BUILT_IN_FORMATS: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '#,##0': 3, '#,##0.00': 4, '0%': 9, '0.00%': 10 };
/** The first number a workbook's own formats may take. */
const FIRST_CUSTOM_FORMAT = 164;
/** Days from Excel's day 0 (1899-12-30, with its 1900 leap-year quirk) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25569;
const DAY_MS = 86_400_000;
/** Sheet text gathered before it is handed to the zip: fewer, larger writes. */
const CHUNK_CHARS = 64 * 1024;

/** Characters XML 1.0 cannot carry (dropped, as exceljs does with control characters) and those it must escape. */
const XML_UNSAFE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
const XML_UNSAFE_ALL = /[&<>"]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data or an attribute value. */
export function xmlText(text: string): string {
  // Most cells need nothing: one test instead of a replace that copies the string.
  if (!XML_UNSAFE.test(text)) return text;
  return text.replace(XML_UNSAFE_ALL, (c) => ENTITIES[c] ?? '');
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const EDGE_SPACE = /^\s|\s$/;

export class XlsxSheet {
  private readonly entry = new PassThrough();
  private readonly letters: string[] = [];
  private rowNumber = 0;
  private pending = '';
  private ended = false;

  constructor(
    readonly name: string,
    readonly path: string,
    options: XlsxSheetOptions,
    /** The workbook's failure: a wait for the zip must not outlast the client. */
    private readonly broken: Promise<never>,
  ) {
    const pane = options.frozenRows
      ? `<pane ySplit="${options.frozenRows}" topLeftCell="A${options.frozenRows + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>`
      : '';
    const cols = options.widths.map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`).join('');
    this.pending =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      `<sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
  }

  /** What the zip reads this sheet from. */
  get source(): PassThrough {
    return this.entry;
  }

  /** Appends a row; `styles[i]` is the style (from XlsxWriter.style) of the i-th cell, 0 for none. */
  addRow(values: readonly XlsxValue[], styles: readonly number[]): void {
    if (this.ended) throw new Error(`sheet ${this.name} is ended`);
    const r = ++this.rowNumber;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      const ref = (this.letters[i] ??= columnName(i)) + r;
      const s = styles[i] ? ` s="${styles[i]}"` : '';
      if (typeof value === 'number') {
        // NaN and infinities have no cell form: no cell rather than a file Excel must repair.
        if (Number.isFinite(value)) xml += `<c r="${ref}"${s}><v>${value}</v></c>`;
      } else if (typeof value === 'string') {
        const space = EDGE_SPACE.test(value) ? ' xml:space="preserve"' : '';
        xml += `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`;
      } else if (value instanceof Date) {
        const serial = value.getTime() / DAY_MS + EXCEL_EPOCH_DAYS;
        if (Number.isFinite(serial)) xml += `<c r="${ref}"${s}><v>${serial}</v></c>`;
      } else {
        xml += `<c r="${ref}"${s} t="str"><f>${xmlText(value.formula)}</f><v>${xmlText(value.result)}</v></c>`;
      }
    }
    this.pending += `${xml}</row>`;
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  /**
   * Resolves once the zip has taken in what this sheet wrote, so rows do not pile up in memory;
   * rejects when the workbook can no longer be delivered.
   */
  async caughtUp(): Promise<void> {
    this.flush();
    if (!this.entry.writableNeedDrain) return;
    const ac = new AbortController();
    await Promise.race([once(this.entry, 'drain', { signal: ac.signal }), this.broken]).finally(() => ac.abort());
  }

  /** Ends the sheet; the zip has all of it once it resolves. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.pending += '</sheetData></worksheet>';
    this.ended = true;
    this.flush();
    this.entry.end();
  }

  private flush(): void {
    if (!this.pending) return;
    this.entry.write(this.pending);
    this.pending = '';
  }
}

/** A workbook streamed into `out` as it is written; sheets are written one after another. */
export class XlsxWriter {
  private readonly zip = archiver('zip');
  private readonly sheets: XlsxSheet[] = [];
  private readonly formats = new Map<string, number>();
  private readonly styleIds = new Map<string, number>();
  /** Cell formats (xf): [number format id, bold]; 0 is the default. */
  private readonly xfs: Array<[number, boolean]> = [[0, false]];
  /** Rejects when `out` fails or closes before it has the whole workbook, or the zip fails; never resolves. */
  private readonly broken: Promise<never>;
  private readonly finished: Promise<unknown>;

  constructor(
    out: Writable,
    private readonly creator: string,
  ) {
    this.broken = new Promise<never>((_, reject) => {
      out.on('error', reject);
      out.once('close', () => {
        if (!out.writableFinished) reject(new Error('client went away'));
      });
      this.zip.on('error', reject);
    });
    this.finished = once(out, 'finish');
    // Both are awaited where the writing waits (caughtUp, finish); these keep a failure between
    // waits from going unhandled (`finished` rejects on the same error `broken` reports).
    this.broken.catch(() => undefined);
    this.finished.catch(() => undefined);
    this.zip.pipe(out);
  }

  /** The style id of a cell format, made once per distinct format. */
  style(style: XlsxStyle): number {
    const key = `${style.bold ? 'b' : ''}|${style.numFmt ?? ''}`;
    let id = this.styleIds.get(key);
    if (id === undefined) {
      id = this.xfs.push([style.numFmt === undefined ? 0 : this.formatId(style.numFmt), style.bold === true]) - 1;
      this.styleIds.set(key, id);
    }
    return id;
  }

  /** Starts a sheet; the previous one must have ended (the zip writes one entry at a time). */
  addSheet(name: string, options: XlsxSheetOptions): XlsxSheet {
    const sheet = new XlsxSheet(name, `xl/worksheets/sheet${this.sheets.length + 1}.xml`, options, this.broken);
    this.sheets.push(sheet);
    this.zip.append(sheet.source, { name: sheet.path });
    return sheet;
  }

  /** Ends every sheet, writes the workbook's parts and the zip's directory; resolves when `out` has it all. */
  async finish(): Promise<void> {
    for (const sheet of this.sheets) await sheet.end();
    const parts: Array<[string, string]> = [
      ['[Content_Types].xml', this.contentTypes()],
      ['_rels/.rels', this.packageRels()],
      ['docProps/core.xml', this.coreProperties()],
      ['docProps/app.xml', `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${xmlText(this.creator)}</Application></Properties>`],
      ['xl/workbook.xml', this.workbookXml()],
      ['xl/_rels/workbook.xml.rels', this.workbookRels()],
      ['xl/styles.xml', this.stylesXml()],
    ];
    for (const [name, xml] of parts) this.zip.append(xml, { name });
    await Promise.race([Promise.all([this.zip.finalize(), this.finished]), this.broken]);
  }

  /**
   * Stops writing after a failure. Not archiver's abort(): that ends `out` as if the file were
   * whole; the caller breaks `out` instead, so a download cannot pass for a complete workbook.
   */
  abandon(): void {
    this.zip.unpipe();
    for (const sheet of this.sheets) sheet.source.destroy();
    this.zip.destroy();
  }

  private formatId(code: string): number {
    const builtIn = BUILT_IN_FORMATS[code];
    if (builtIn !== undefined) return builtIn;
    let id = this.formats.get(code);
    if (id === undefined) this.formats.set(code, (id = FIRST_CUSTOM_FORMAT + this.formats.size));
    return id;
  }

  private contentTypes(): string {
    const sheets = this.sheets
      .map((s) => `<Override PartName="/${s.path}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('');
    return (
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheets +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>'
    );
  }

  private packageRels(): string {
    return (
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
      `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
      `<Relationship Id="rId2" Type="${PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>` +
      `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
      '</Relationships>'
    );
  }

  private coreProperties(): string {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return (
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      `<dc:creator>${xmlText(this.creator)}</dc:creator>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">${now}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${now}</dcterms:modified>` +
      '</cp:coreProperties>'
    );
  }

  private workbookXml(): string {
    const sheets = this.sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
    return `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`;
  }

  private workbookRels(): string {
    const sheets = this.sheets.map((s, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="${s.path.slice('xl/'.length)}"/>`).join('');
    const styles = `<Relationship Id="rId${this.sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`;
    return `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${sheets}${styles}</Relationships>`;
  }

  private stylesXml(): string {
    const numFmts = [...this.formats].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`).join('');
    const font = (bold: boolean) => `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
    const xfs = this.xfs
      .map(([fmt, bold]) => `<xf numFmtId="${fmt}" fontId="${bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${fmt ? ' applyNumberFormat="1"' : ''}${bold ? ' applyFont="1"' : ''}/>`)
      .join('');
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      (this.formats.size ? `<numFmts count="${this.formats.size}">${numFmts}</numFmts>` : '') +
      `<fonts count="2">${font(false)}${font(true)}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${xfs}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}
