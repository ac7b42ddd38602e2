import { convert } from 'html-to-text';
import PDFDocument from 'pdfkit';

/**
 * An e-mail that is itself the receipt becomes a PDF of its text: the worker then reads it on
 * the PDF text-layer path it already has (lines with their boxes, no OCR), the review screen
 * shows it like any PDF, and no browser is needed to render HTML. Courier keeps the columns of
 * a receipt lined up, so a label and its amount stay on one line.
 */

/** The worker reads the first 5 pages; 80 lines of 9 pt fit on a page. */
const MAX_LINES = 400;
const MAX_COLUMNS = 90;
const FONT_SIZE = 9;
const LINE_HEIGHT = 11;
const MARGIN = 36;

/** Windows-1252 beyond Latin-1: with Latin-1 itself, what Courier (a PDF standard font) can write. */
const CP1252_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/**
 * Characters Courier cannot write become `?`: written anyway they would read back as other
 * letters. Scripts beyond Western European (Japanese, Cyrillic, ₹) are lost this way; amounts,
 * `$ € £ ¥` and the languages the extraction reads in Latin letters are kept.
 */
export function courierText(line: string): string {
  return line.replace(/[^\u0020-\u007e\u00a0-\u00ff]/gu, (c) => (CP1252_EXTRA.includes(c) ? c : '?'));
}

/** The body as lines of text: the HTML part (what the reader sees) with its tables kept as columns, else the text part. */
export function bodyText(message: { html: string | null; text: string | null }): string | null {
  if (message.html) {
    const text = convert(message.html, {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
        { selector: 'h1', options: { uppercase: false } },
        { selector: 'h2', options: { uppercase: false } },
        { selector: 'h3', options: { uppercase: false } },
      ],
    });
    if (text.trim()) return text;
  }
  return message.text?.trim() ? message.text : null;
}

/**
 * The lines as they will stand on the page: tabs expanded, blank runs folded to one, long lines
 * wrapped at the page's width, at most 5 pages' worth.
 */
export function pageLines(text: string): string[] {
  const lines: string[] = [];
  let blank = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = courierText(raw.replace(/\t/g, '    ')).trimEnd();
    if (!line) {
      if (!blank && lines.length > 0) lines.push('');
      blank = true;
      continue;
    }
    blank = false;
    for (let start = 0; start < line.length; start += MAX_COLUMNS) lines.push(line.slice(start, start + MAX_COLUMNS));
    if (lines.length >= MAX_LINES) break;
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.slice(0, MAX_LINES);
}

/** Renders the lines into a PDF with a text layer, a page for every 80 of them. */
export async function renderTextPdf(lines: readonly string[], title: string): Promise<Buffer> {
  const width = MARGIN * 2 + Math.ceil(MAX_COLUMNS * FONT_SIZE * 0.6);
  const perPage = 80;
  const height = MARGIN * 2 + perPage * LINE_HEIGHT;
  const doc = new PDFDocument({ size: [width, height], margin: MARGIN, autoFirstPage: false, info: { Title: title.slice(0, 200), Producer: 'Receipts e-mail intake' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font('Courier').fontSize(FONT_SIZE);
  for (let i = 0; i < Math.max(1, lines.length); i += perPage) {
    doc.addPage();
    lines.slice(i, i + perPage).forEach((line, row) => {
      if (line) doc.text(line, MARGIN, MARGIN + row * LINE_HEIGHT, { lineBreak: false });
    });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
