// The page as document decodes and prepares it and as the OCR readers read it: below both, so
// neither imports the other for it.
import type { AcceptedMime } from '@receipts/common';

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

/** A page as the clean-up left it (document/prepare-page.ts). */
export interface PreparedPage {
  /** Grayscale and upright; `toOriginal` leads back to the page as decoded. */
  page: PageImage;
  /** Clockwise degrees the page was turned (0, 90, 180, 270). */
  rotated: number;
  /**
   * Degrees of tilt straightened. Always 0 for now: deskew (deskew.step.ts) cost more fields than it
   * won in bench/prepare-page.bench.ts, so it is not applied; tesseract copes with small tilts itself.
   */
  skew: number;
  /** Whether a photo was cropped to its receipt. */
  cropped: boolean;
  /** Whether OSD was asked which way up the page is (see `orient`). */
  oriented: boolean;
  /** The script OSD saw ("Latin", "Japanese", …), for choosing OCR languages; see scriptConfidence. */
  script?: string;
  scriptConfidence?: number;
}

/**
 * The page clean-up an OCR engine is given by whoever composes it (document/prepare-page.ts's
 * `pagePreparation`), so the engines need not know how pages are prepared.
 */
export interface PagePreparation {
  /** Cropped, lit evenly and, as `orient` says, turned upright; `crop: false` keeps the whole frame. */
  prepare(page: PageImage, options: { signal: AbortSignal; orient?: 'always' | 'never' | 'landscape'; crop?: boolean }): Promise<PreparedPage>;
  /** A prepared page turned upright by OSD (a page OSD has seen comes back as it was); `trial`: the turn will be judged by reading it again. */
  orient(prepared: PreparedPage, options: { signal: AbortSignal; trial?: boolean }): Promise<PreparedPage>;
  /** The page turned by a multiple of 90° clockwise. */
  turn(page: PageImage, rotate: 0 | 90 | 180 | 270): Promise<PageImage>;
  /** The script OSD sees on a page ("Latin", "Japanese", …), asked once per page. */
  script(page: PageImage, options: { signal: AbortSignal }): Promise<string | undefined>;
  /** Ends what the clean-up keeps running (OSD's worker). */
  close(): Promise<void>;
}
