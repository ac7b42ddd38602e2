import type { PageImage } from '../ocr/ocr-engine.js';
import { evenIllumination } from './illumination.step.js';
import { orientPage } from './orientation.step.js';
import { cropToReceipt } from './receipt-crop.step.js';

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
  /** The script OSD saw ("Latin", "Japanese", …), for choosing OCR languages; see scriptConfidence. */
  script?: string;
  scriptConfidence?: number;
}

/**
 * A decoded page made ready for OCR: cropped to the receipt (photos), lighting evened out (uneven
 * pages only) and turned upright. The crop comes first so the other steps measure the receipt,
 * not the table it lies on. Text scaling (text-scale.step.ts) is left out too: it lost fields on
 * the tune half and made pages up to 3× the pixels to read.
 */
export async function preparePage(page: PageImage, options: { signal: AbortSignal }): Promise<PreparedPage> {
  const crop = await cropToReceipt(page);
  options.signal.throwIfAborted();
  const lit = await evenIllumination(crop.page);
  options.signal.throwIfAborted();
  const oriented = await orientPage(lit.page, options);
  return {
    page: oriented.page,
    rotated: oriented.rotated,
    skew: 0,
    cropped: crop.cropped,
    script: oriented.script,
    scriptConfidence: oriented.scriptConfidence,
  };
}
