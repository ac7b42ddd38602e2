import type { PageImage } from '../ocr/ocr-engine.js';
import { deskewPage } from './deskew.step.js';
import { evenIllumination } from './illumination.step.js';
import { orientPage } from './orientation.step.js';
import { cropToReceipt } from './receipt-crop.step.js';
import { scaleText } from './text-scale.step.js';

export interface PreparedPage {
  /** Grayscale, upright, straight; `toOriginal` leads back to the page as decoded. */
  page: PageImage;
  /** Clockwise degrees the page was turned (0, 90, 180, 270). */
  rotated: number;
  /** Degrees of tilt straightened (positive: the lines fell to the right). */
  skew: number;
  /** Whether a photo was cropped to its receipt. */
  cropped: boolean;
  /** The script OSD saw ("Latin", "Japanese", …), for choosing OCR languages. */
  script?: string;
  scriptConfidence?: number;
}

/**
 * A decoded page made ready for OCR: cropped to the receipt (photos), lighting evened out,
 * turned upright, straightened and its text brought to the size tesseract reads best.
 * The crop comes first so the other steps measure the receipt, not the table it lies on.
 */
export async function preparePage(page: PageImage, options: { signal: AbortSignal }): Promise<PreparedPage> {
  const crop = await cropToReceipt(page);
  options.signal.throwIfAborted();
  const lit = await evenIllumination(crop.page);
  options.signal.throwIfAborted();
  const oriented = await orientPage(lit.page, options);
  const straight = await deskewPage(oriented.page, options);
  options.signal.throwIfAborted();
  const scaled = await scaleText(straight.page);
  return {
    page: scaled.page,
    rotated: oriented.rotated,
    skew: straight.skew,
    cropped: crop.cropped,
    script: oriented.script,
    scriptConfidence: oriented.scriptConfidence,
  };
}
