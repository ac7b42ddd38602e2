import sharp from 'sharp';
import type { PageImage } from '../page/page.types.js';
import { sharpOf } from '../page/page-pixels.js';
import { otsuThreshold, readGray, sharpPage, throughInput, type Gray } from './prepare-page.raster.js';

/** Skew is measured on a copy this size (long side): lines stay distinct, the search stays cheap. */
const MEASURE_SIDE = 1000;
/** Tilts searched, in degrees either way: phone photos and sheet feeders stay well inside this. */
const MAX_SKEW = 15;
/** Smaller tilts are left alone: tesseract copes with them and a rotation resamples the text. */
export const MIN_SKEW = 0.5;

/**
 * The tilt of the text lines in degrees (positive: lines fall to the right, so the page needs
 * turning counter-clockwise): the angle whose row projection of the ink changes most sharply from
 * row to row, coarse then fine.
 */
export function measureSkew(gray: Gray): number {
  const threshold = otsuThreshold(gray.data);
  const xs: number[] = [];
  const ys: number[] = [];
  const { width, height, data } = gray;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x]! < threshold) {
        xs.push(x - width / 2);
        ys.push(y - height / 2);
      }
    }
  }
  // A mostly dark image is a photo's background or a negative, not ink on paper: no line to measure.
  if (xs.length === 0 || xs.length > 0.5 * width * height) return 0;
  const span = Math.ceil(Math.hypot(width, height));
  const bins = new Float64Array(span + 1);
  const score = (degrees: number): number => {
    const t = (degrees * Math.PI) / 180;
    const sin = Math.sin(t);
    const cos = Math.cos(t);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! * cos - xs[i]! * sin + span / 2)]!++;
    // Neighbouring rows differ most when each line of text falls into rows of its own; unlike the
    // plain variance this does not favour tilts that merely pile a large dark area into fewer rows.
    let sum = 0;
    for (let i = 1; i < bins.length; i++) sum += (bins[i]! - bins[i - 1]!) ** 2;
    return sum;
  };
  let best = 0;
  let bestScore = score(0);
  for (let a = -MAX_SKEW; a <= MAX_SKEW; a += 1) {
    const s = score(a);
    if (s > bestScore) [best, bestScore] = [a, s];
  }
  const coarse = best;
  for (let a = Math.max(-MAX_SKEW, coarse - 1); a <= Math.min(MAX_SKEW, coarse + 1); a += 0.1) {
    const s = score(a);
    if (s > bestScore) [best, bestScore] = [a, s];
  }
  return Math.round(best * 10) / 10;
}

/** Turns a page by a small angle (degrees, clockwise) on a white canvas; its mapping leads back to the input. */
export async function rotatePage(page: PageImage, degrees: number): Promise<PageImage> {
  const { data, info } = await (await sharpOf(page.image))
    .grayscale()
    .rotate(degrees, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const t = (degrees * Math.PI) / 180;
  const sin = Math.sin(t);
  const cos = Math.cos(t);
  // The canvas grows to hold the turned page; both turn about their centres.
  const toInput = (x: number, y: number): [number, number] => {
    const dx = x - info.width / 2;
    const dy = y - info.height / 2;
    return [dx * cos + dy * sin + page.width / 2, -dx * sin + dy * cos + page.height / 2];
  };
  return sharpPage(sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }), throughInput(page, toInput));
}

/** Straightens text lines tilted by a few degrees. */
export async function deskewPage(page: PageImage, options: { signal: AbortSignal }): Promise<{ page: PageImage; skew: number }> {
  const gray = await readGray(page, MEASURE_SIDE);
  options.signal.throwIfAborted();
  const skew = measureSkew(gray);
  if (Math.abs(skew) < MIN_SKEW) return { page, skew: 0 };
  return { page: await rotatePage(page, -skew), skew };
}
