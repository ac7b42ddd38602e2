import sharp, { type Sharp } from 'sharp';
import { originalPoint, type PageImage, type ToOriginal } from '../page/page.types.js';
import { pixelsOf, rememberPixels, sharpOf } from '../page/page-pixels.js';

/** One 8-bit channel, row after row: what the preparation steps measure on. */
export interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The page as grayscale pixels, optionally shrunk to fit `maxSide` (for measuring, not for OCR). */
export async function readGray(page: PageImage, maxSide?: number): Promise<Gray> {
  let source = await sharpOf(page.image);
  if (maxSide) {
    // Shrunk first, in colour: sharp converts to gray before it resizes whatever the call order, and
    // that conversion (through linear light) cost a 2-megapixel scan 20 ms at full size.
    const small = await source.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
    source = sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } });
  }
  const { data, info } = await source.grayscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Grayscale pixels as a page: a PNG, compression level 1 (it lives for one job, encoding time
 * matters more than size), its pixels remembered for the steps and the reader that take it next.
 */
export async function grayPage(gray: Gray, toOriginal: ToOriginal): Promise<PageImage> {
  const { data, width, height } = gray;
  const image = await sharp(data, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
  rememberPixels(image, { data, width, height, channels: 1 });
  return { image, width, height, toOriginal };
}

/** The page in grayscale: as it is when it already has one channel (no re-encoding), else converted. */
export async function asGray(page: PageImage): Promise<PageImage> {
  if ((await pixelsOf(page.image)).channels === 1) return page;
  return sharpPage(await sharpOf(page.image), page.toOriginal ?? ((x, y) => [x / page.width, y / page.height]));
}

/**
 * An encoded sharp pipeline's result as a page: a PNG of one channel. sharp's `grayscale()` alone
 * writes three identical channels, and tesseract.js then converts every page in WebAssembly: on 21
 * SROIE scans it read a one-channel page for 0.86 CPU-s against 0.97, the same text.
 */
export async function sharpPage(pipeline: Sharp, toOriginal: ToOriginal): Promise<PageImage> {
  const { data, info } = await pipeline.grayscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return grayPage({ data, width: info.width, height: info.height }, toOriginal);
}

/**
 * The mapping of a page made from `input`: `toInput` takes a pixel of the new page to a pixel of
 * `input`, and the input's own mapping takes it on to the original.
 */
export function throughInput(input: PageImage, toInput: (x: number, y: number) => [number, number]): ToOriginal {
  return (x, y) => {
    const [ix, iy] = toInput(x, y);
    return originalPoint(input, ix, iy);
  };
}

/** Otsu's threshold over a histogram of 8-bit values: the split that best separates ink from paper. */
export function otsuThreshold(data: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const value of data) histogram[value]!++;
  const total = data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * histogram[i]!;
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightBelow += histogram[t]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const between = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** A rectangle in an image's pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The 4-connected regions of the pixels `inside` holds for, with their pixel counts and bounding
 * boxes; `labels`, when given, receives each pixel's region as its index in the result plus one (0: none).
 */
export function regions(width: number, height: number, inside: (i: number) => boolean, labels?: Int32Array): Array<{ area: number; box: Box }> {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const found: Array<{ area: number; box: Box }> = [];
  for (let start = 0; start < seen.length; start++) {
    if (seen[start] || !inside(start)) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let area = 0;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    while (top > 0) {
      const i = stack[--top]!;
      if (labels) labels[i] = found.length + 1;
      const x = i % width;
      const y = (i - x) / width;
      area++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const push = (j: number) => {
        if (!seen[j] && inside(j)) {
          seen[j] = 1;
          stack[top++] = j;
        }
      };
      if (x > 0) push(i - 1);
      if (x < width - 1) push(i + 1);
      if (y > 0) push(i - width);
      if (y < height - 1) push(i + width);
    }
    found.push({ area, box: { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } });
  }
  return found;
}
