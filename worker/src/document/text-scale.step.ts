import type { PageImage } from '../page/page.types.js';
import { sharpOf } from '../page/page-pixels.js';
import { otsuThreshold, readGray, regions, sharpPage, throughInput, type Gray } from './prepare-page.raster.js';

/** Character height (median ink blob, pixels) tesseract reads best at. */
export const TARGET_TEXT_HEIGHT = 32;
/** Text is measured on a copy at most this wide: characters stay several pixels high, labelling stays cheap. */
const MEASURE_WIDTH = 1200;
/** Scale factors closer to 1 than this are not worth a resampling. */
const MIN_UPSCALE = 1.3;
const MAX_DOWNSCALE = 0.7;
/** Upscaling stops here: past it a page costs OCR time without gaining legibility. */
const MAX_PIXELS = 16_000_000;

/**
 * The median height of character-sized ink blobs, in the measured image's pixels, or undefined
 * when too few are found to say.
 */
export function medianTextHeight(gray: Gray): number | undefined {
  const { width, height, data } = gray;
  const threshold = otsuThreshold(data);
  const heights: number[] = [];
  for (const { area, box } of regions(width, height, (i) => data[i]! < threshold)) {
    // Characters: a few pixels high, not long rules or big logos, not mere dots.
    if (box.height >= 4 && box.height <= height / 10 && box.width <= 3 * box.height && area >= 6) heights.push(box.height);
  }
  if (heights.length < 20) return undefined;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)]!;
}

/** Resizes a page so its characters are about `target` pixels high (upscaling small print, shrinking huge). */
export async function scaleText(page: PageImage, target = TARGET_TEXT_HEIGHT): Promise<{ page: PageImage; scale: number }> {
  const gray = await readGray(page, Math.max(MEASURE_WIDTH, Math.ceil((MEASURE_WIDTH * page.height) / page.width)));
  const measured = medianTextHeight(gray);
  if (!measured) return { page, scale: 1 };
  const textHeight = (measured * page.width) / gray.width;
  const limit = Math.sqrt(MAX_PIXELS / (page.width * page.height));
  const scale = Math.min(target / textHeight, limit);
  if (scale < MIN_UPSCALE && scale > MAX_DOWNSCALE) return { page, scale: 1 };
  const width = Math.round(page.width * scale);
  const height = Math.round(page.height * scale);
  const toInput = (x: number, y: number): [number, number] => [(x * page.width) / width, (y * page.height) / height];
  return { page: await sharpPage((await sharpOf(page.image)).resize(width, height, { fit: 'fill' }), throughInput(page, toInput)), scale: width / page.width };
}
