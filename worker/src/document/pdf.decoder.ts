import { isReceiptText, withoutControlCharacters } from '@receipts/common';
import { getDocument, type PageViewport } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { DECODE_MESSAGES, MAX_INPUT_PIXELS, MAX_PDF_PAGES } from './decode.limits.js';
import type { TextLine } from './decode.protocol.js';

/**
 * Scanned pages are rendered with this long side whatever the page size says, so a page can
 * never raster to more than 2500² pixels: the page-size check is this scale.
 */
const RASTER_LONG_SIDE = 2500;
/** A page read from its text layer is still drawn for the review screen, at the size its picture is kept. */
const PICTURE_LONG_SIDE = 2000;
/** Above the baseline a line's glyphs reach about this share of the font size, below it the rest. */
const ASCENT = 0.8;
const DESCENT = 0.2;

const DAMAGED = 'This PDF could not be read: the file is damaged or not a PDF.';

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: { width: number; height: number; toBuffer(mime: 'image/png'): Buffer };
    context: { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
  };
}

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

type Box = TextLine['box'];

/** Where an item's glyphs lie on the page, in fractions of the viewport (origin top-left). */
function itemBox(item: TextItem, viewport: PageViewport): Box {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  // Along the text (a, b) for its width, up the glyphs (c, d) for its height: rotated text too.
  const along = Math.hypot(a, b) || 1;
  const up = Math.hypot(c, d) || 1;
  const [ux, uy] = [a / along, b / along];
  const [vx, vy] = [c / up, d / up];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const w of [0, item.width]) {
    for (const h of [-DESCENT * item.height, ASCENT * item.height]) {
      const [x, y] = viewport.convertToViewportPoint(e + w * ux + h * vx, f + w * uy + h * vy) as [number, number];
      xs.push(x / viewport.width);
      ys.push(y / viewport.height);
    }
  }
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const [x0, x1, y0, y1] = [clamp(Math.min(...xs)), clamp(Math.max(...xs)), clamp(Math.min(...ys)), clamp(Math.max(...ys))];
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** Lines of a page in reading order: items grouped by their baseline, top to bottom, each with its box. */
function pageLines(page: number, items: TextItem[], viewport: PageViewport): TextLine[] {
  const lines: Array<{ y: number; parts: Array<{ x: number; s: string; box: Box }> }> = [];
  for (const item of items) {
    // A font's ToUnicode may map a glyph to NUL or another control character, which no text column stores.
    const text = withoutControlCharacters(item.str);
    if (!text.trim()) continue;
    const [, , , , x = 0, y = 0] = item.transform;
    let line = lines.find((l) => Math.abs(l.y - y) < 3);
    if (!line) lines.push((line = { y, parts: [] }));
    line.parts.push({ x, s: text, box: itemBox(item, viewport) });
  }
  return lines
    .sort((a, b) => b.y - a.y)
    .map((l) => {
      const parts = l.parts.sort((a, b) => a.x - b.x);
      return {
        page,
        text: parts.map((p) => p.s).join(' ').replace(/\s+/g, ' ').trim(),
        box: parts.map((p) => p.box).reduce(union),
      };
    });
}

/**
 * pdfjs reports an image it refused for its size (`maxImageSize`) only as a console warning
 * and renders the page without it. This runs in a decoder process of its own, one file at a
 * time, so its console is ours to listen to while the file is read. The other warnings are
 * dropped, as pdfjs' verbosity 0 did before.
 */
async function withRefusedImageCount<T>(read: (refused: () => number) => Promise<T>): Promise<T> {
  const original = console.warn;
  let refused = 0;
  console.warn = (...args: unknown[]) => {
    if (/Image exceeded maximum allowed size/.test(String(args[0]))) refused++;
  };
  try {
    return await read(() => refused);
  } finally {
    console.warn = original;
  }
}

export interface DecodedPdf {
  /** Rendered pages (PNG) when the text layer is too thin to use. */
  pages: Buffer[];
  /** The text layer, one line per line of `textLines`, when it has enough text to skip OCR. */
  textLayer?: string;
  textLines?: TextLine[];
  /** The pages drawn for people to look at, when `pages` is empty because the text layer was read. */
  pictures?: Buffer[];
}

/**
 * A PDF's text layer when it has one (no OCR needed), else its first pages rasterised as PNG.
 * Encrypted, empty or broken PDFs, and images above MAX_INPUT_PIXELS, fail with a message
 * for the user. Runs inside a decoder process (decode.sandbox.ts): time and memory are
 * bounded there.
 */
export async function decodePdf(bytes: Buffer): Promise<DecodedPdf> {
  return withRefusedImageCount(async (refusedImages) => {
    const task = getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      useSystemFonts: false,
      // Warnings on: a refused image is only reported as one (see withRefusedImageCount).
      verbosity: 1,
      // Images are refused from their declared size, before a byte of them is decoded.
      maxImageSize: MAX_INPUT_PIXELS,
    });
    let pdf;
    try {
      pdf = await task.promise;
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'PasswordException') throw new UnreadableFileError('This PDF is password-protected. Please upload an unprotected copy.');
      throw new UnreadableFileError(DAMAGED, { cause: err });
    }
    try {
      if (pdf.numPages === 0) throw new UnreadableFileError('This PDF has no pages.');
      const count = Math.min(pdf.numPages, MAX_PDF_PAGES);
      const textLines: TextLine[] = [];
      for (let n = 1; n <= count; n++) {
        const page = await pdf.getPage(n);
        textLines.push(...pageLines(n, (await page.getTextContent()).items as TextItem[], page.getViewport({ scale: 1 })));
      }
      const rasterise = async (longSide: number): Promise<Buffer[]> => {
        const pages: Buffer[] = [];
        for (let n = 1; n <= count; n++) {
          const page = await pdf.getPage(n);
          const base = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: longSide / Math.max(base.width, base.height) });
          // pdfjs's own canvas factory: its canvas package must be the one pdfjs was built against.
          const { canvas, context } = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory.create(
            Math.ceil(viewport.width),
            Math.ceil(viewport.height),
          );
          context.fillStyle = '#ffffff';
          context.fillRect(0, 0, canvas.width, canvas.height);
          await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
          if (refusedImages() > 0) throw new UnreadableFileError(DECODE_MESSAGES.fileTooLarge);
          pages.push(canvas.toBuffer('image/png'));
        }
        return pages;
      };
      const textLayer = textLines.map((l) => l.text).join('\n');
      // No OCR needs the pages then, but the review screen shows them.
      if (isReceiptText(textLayer)) return { pages: [], textLayer, textLines, pictures: await rasterise(PICTURE_LONG_SIDE) };
      return { pages: await rasterise(RASTER_LONG_SIDE) };
    } catch (err) {
      if (err instanceof UnreadableFileError) throw err;
      throw new UnreadableFileError(DAMAGED, { cause: err });
    } finally {
      await pdf.destroy();
    }
  });
}
