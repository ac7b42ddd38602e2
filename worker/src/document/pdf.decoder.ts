import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { UnreadableFileError } from '../ocr/ocr-engine.js';

/** Receipts are one or two pages; longer PDFs are read up to here (the rest is ignored). */
export const MAX_PDF_PAGES = 5;
/** A page's text layer counts when it has at least this many letters or digits. */
const MIN_TEXT_CHARS = 20;
const RASTER_LONG_SIDE = 2500;

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
}

/** Text of a page in reading order: items grouped into lines by their baseline, top to bottom. */
function pageText(items: TextItem[]): string {
  const lines: Array<{ y: number; parts: Array<{ x: number; s: string }> }> = [];
  for (const item of items) {
    if (!item.str.trim()) continue;
    const [, , , , x = 0, y = 0] = item.transform;
    let line = lines.find((l) => Math.abs(l.y - y) < 3);
    if (!line) lines.push((line = { y, parts: [] }));
    line.parts.push({ x, s: item.str });
  }
  return lines
    .sort((a, b) => b.y - a.y)
    .map((l) => l.parts.sort((a, b) => a.x - b.x).map((p) => p.s).join(' ').replace(/\s+/g, ' ').trim())
    .join('\n');
}

/**
 * A PDF's text layer when it has one (no OCR needed), else its first pages rasterised as PNG.
 * Encrypted, empty or broken PDFs fail with a message for the user.
 */
export async function decodePdf(bytes: Buffer, signal: AbortSignal): Promise<{ pages: Buffer[]; textLayer?: string }> {
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
  signal.addEventListener('abort', () => void task.destroy(), { once: true });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') throw new UnreadableFileError('This PDF is password-protected. Please upload an unprotected copy.');
    throw new UnreadableFileError('This PDF could not be read: the file is damaged or not a PDF.');
  }
  try {
    if (pdf.numPages === 0) throw new UnreadableFileError('This PDF has no pages.');
    const count = Math.min(pdf.numPages, MAX_PDF_PAGES);
    const texts: string[] = [];
    for (let n = 1; n <= count; n++) {
      signal.throwIfAborted();
      const page = await pdf.getPage(n);
      texts.push(pageText((await page.getTextContent()).items as TextItem[]));
    }
    const textLayer = texts.join('\n\n').trim();
    if (textLayer.replace(/[^A-Za-z0-9]/g, '').length >= MIN_TEXT_CHARS) return { pages: [], textLayer };
    const pages: Buffer[] = [];
    for (let n = 1; n <= count; n++) {
      signal.throwIfAborted();
      const page = await pdf.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: RASTER_LONG_SIDE / Math.max(base.width, base.height) });
      // pdfjs's own canvas factory: its canvas package must be the one pdfjs was built against.
      const { canvas, context } = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory.create(
        Math.ceil(viewport.width),
        Math.ceil(viewport.height),
      );
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
      pages.push(canvas.toBuffer('image/png'));
    }
    return { pages };
  } catch (err) {
    if (err instanceof UnreadableFileError || signal.aborted) throw err;
    throw new UnreadableFileError('This PDF could not be read: the file is damaged or not a PDF.');
  } finally {
    await pdf.destroy();
  }
}
