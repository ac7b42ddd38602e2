import sharp from 'sharp';
import type { PageImage } from '../ocr/ocr-engine.js';
import { detectOrientation } from '../ocr/orientation.detector.js';
import { sharpPage, throughInput } from './prepare-page.raster.js';

/** OSD reads a page this size (long side): enough for receipt print, ~0.3 s instead of seconds at full size. */
export const OSD_SIDE = 1400;
/** Below this OSD margin the page is left as it is: a wrong turn costs the whole receipt, a missed one only a rotated page. */
export const MIN_ORIENTATION_CONFIDENCE = 1;

export interface Oriented {
  page: PageImage;
  /** Clockwise degrees the page was turned. */
  rotated: 0 | 90 | 180 | 270;
  script?: string;
  scriptConfidence?: number;
}

/** Turns a page by a multiple of 90° clockwise; its mapping leads back to the input's pixels. */
export async function turnPage(page: PageImage, rotate: 0 | 90 | 180 | 270): Promise<PageImage> {
  if (rotate === 0) return page;
  const { width: w, height: h } = page;
  const toInput = (x: number, y: number): [number, number] =>
    rotate === 90 ? [y, h - x] : rotate === 180 ? [w - x, h - y] : [w - y, x];
  return sharpPage(sharp(page.image).rotate(rotate), throughInput(page, toInput));
}

/** Finds which way up the text is (tesseract OSD on a shrunk copy) and turns the page upright. */
export async function orientPage(page: PageImage, options: { signal: AbortSignal }): Promise<Oriented> {
  const probe = await sharp(page.image)
    .resize({ width: OSD_SIDE, height: OSD_SIDE, fit: 'inside', withoutEnlargement: true })
    .grayscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
  options.signal.throwIfAborted();
  const guess = await detectOrientation(probe);
  options.signal.throwIfAborted();
  if (!guess) return { page, rotated: 0 };
  const rotated = guess.confidence >= MIN_ORIENTATION_CONFIDENCE ? guess.rotate : 0;
  return { page: await turnPage(page, rotated), rotated, script: guess.script, scriptConfidence: guess.scriptConfidence };
}
