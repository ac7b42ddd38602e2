import sharp from 'sharp';
import type { PageImage } from '../page/page.types.js';
import { asGray, grayPage, readGray, type Gray } from './prepare-page.raster.js';

/** The background is estimated on blocks about this share of the long side: larger than a character, smaller than a shadow. */
const BLOCK_SHARE = 1 / 60;
/** Evenness is judged on a copy this size (long side). */
const MEASURE_SIDE = 600;
/** Paper whose brightness varies less than this (8-bit levels between its 5th and 95th percentile) is evenly lit: left alone. */
const EVEN_SPREAD = 40;

/**
 * The paper's brightness under each pixel: the brightest value of each block (ink is dark, so it
 * drops out), smoothed and brought back to full size.
 */
async function background(gray: Gray): Promise<Gray> {
  const block = Math.max(4, Math.round(Math.max(gray.width, gray.height) * BLOCK_SHARE));
  const bw = Math.ceil(gray.width / block);
  const bh = Math.ceil(gray.height / block);
  const small = new Uint8Array(bw * bh);
  for (let y = 0; y < gray.height; y++) {
    const row = Math.floor(y / block) * bw;
    for (let x = 0; x < gray.width; x++) {
      const v = gray.data[y * gray.width + x]!;
      const k = row + Math.floor(x / block);
      if (v > small[k]!) small[k] = v;
    }
  }
  // A block with no paper in it (a solid logo, a bar code) takes its neighbours' level through the blur.
  const data = await sharp(small, { raw: { width: bw, height: bh, channels: 1 } })
    .blur(1.5)
    .resize(gray.width, gray.height, { fit: 'fill', kernel: 'linear' })
    // Raw one-channel input comes out as sRGB unless told otherwise.
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { data, width: gray.width, height: gray.height };
}

function percentile(data: Uint8Array, q: number): number {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v]!++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= q * data.length) return v;
  }
  return 255;
}

/**
 * Evens out shadows and uneven light: each pixel divided by the paper's brightness around it, then
 * stretched so the darkest print is black. Output is grayscale; evenly lit pages only turn gray.
 */
export async function evenIllumination(page: PageImage): Promise<{ page: PageImage; evened: boolean }> {
  // Judged on a small copy first: flat scans, most pages, then cost next to nothing.
  const probe = await background(await readGray(page, MEASURE_SIDE));
  if (percentile(probe.data, 0.95) - percentile(probe.data, 0.05) < EVEN_SPREAD) return { page: await asGray(page), evened: false };
  const gray = await readGray(page);
  const bg = await background(gray);
  const toOriginal = page.toOriginal ?? ((x: number, y: number): [number, number] => [x / page.width, y / page.height]);
  const out = new Uint8Array(gray.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, (255 * gray.data[i]!) / Math.max(1, bg.data[i]!));
  const black = percentile(out, 0.01);
  const range = Math.max(1, 255 - black);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, ((out[i]! - black) * 255) / range);
  return { page: await grayPage({ data: out, width: gray.width, height: gray.height }, toOriginal), evened: true };
}
