import type { AcceptedMime, EngineName, RecognizedDocument } from '@receipts/common';

/** Maps a pixel of a prepared page image back to the original page, as fractions (0..1) of its width and height. */
export type ToOriginal = (x: number, y: number) => [number, number];

/** One page ready for OCR: an encoded image (PNG or JPEG) and its pixel size. */
export interface PageImage {
  image: Buffer;
  width: number;
  height: number;
  /**
   * Where this image's pixels lie on the original page, after whatever rotation, crop or
   * perspective correction made it. Absent: the image is the whole page, upright (x / width, y / height).
   */
  toOriginal?: ToOriginal;
}

/** `page.toOriginal`, or the identity scaled to fractions. */
export function originalPoint(page: PageImage, x: number, y: number): [number, number] {
  return page.toOriginal ? page.toOriginal(x, y) : [x / page.width, y / page.height];
}

/**
 * The quarter turn (clockwise, degrees) that shows the original page as this image reads: where
 * the image's top-to-bottom runs on the original page. A page read as decoded is 0; one turned to
 * be read upright gives the turn that shows its picture upright too.
 */
export function uprightTurn(page: PageImage): 0 | 90 | 180 | 270 {
  const [x0, y0] = originalPoint(page, page.width / 2, 0);
  const [x1, y1] = originalPoint(page, page.width / 2, page.height);
  const [dx, dy] = [x1 - x0, y1 - y0];
  if (Math.abs(dy) >= Math.abs(dx)) return dy >= 0 ? 0 : 180;
  return dx > 0 ? 90 : 270;
}

/** A line read from a page image, its box in that image's pixels. */
export interface PageLine {
  text: string;
  /** 0..1 */
  confidence: number;
  box: { x: number; y: number; width: number; height: number };
}

/** A file turned into what an engine reads: page images and, for PDFs with one, a text layer. */
export interface DecodedDocument {
  mimeType: AcceptedMime;
  /** The original bytes (a cloud engine sends these as they are). */
  original: Buffer;
  pages: PageImage[];
  /** Text read from a PDF's text layer; when present no OCR is needed. */
  textLayer?: string;
  /** The text layer's lines with their boxes (fractions of the page); line n of `textLayer` is `textLines[n]`. */
  textLines?: Array<{ page: number; text: string; box: { x: number; y: number; width: number; height: number } }>;
  /** PNG pictures of the pages for the review screen when `pages` has none (a PDF read from its text layer). */
  pictures?: Buffer[];
}

/** What the upload tells an engine about the receipt before it is read. */
export interface RecognizeHints {
  /** The currency the user picked. */
  currencyCode?: string;
  /** The day the receipt is judged on (validation's date range). */
  now?: Date;
}

/** An OCR engine behind one interface; the pipeline reports 40 % before and 50 % after `recognize`. */
export interface OcrEngine {
  readonly name: EngineName;
  /** Whatever this engine wants done to the pages first (grayscale, crop, scale); 30 % after it. */
  prepare(doc: DecodedDocument, signal: AbortSignal): Promise<DecodedDocument>;
  recognize(doc: DecodedDocument, signal: AbortSignal, hints?: RecognizeHints): Promise<RecognizedDocument>;
  /** Loads what the engine otherwise loads on the first page that needs it (models), so a measurement sees steady state. */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown for input that is the file's own fault: the upload fails with this message, no retry. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
}

/**
 * An engine's own failure (a remote model that did not answer, or refused): the upload fails
 * with this message, which names no internals, once the job's tries are spent; at once when
 * `final` (another try cannot do better). `detail` is what the operator reads in the log.
 */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    message: string,
    readonly final: boolean,
    readonly detail: string,
  ) {
    super(message);
  }
}
