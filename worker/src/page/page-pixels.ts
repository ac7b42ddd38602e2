import sharp, { type Sharp } from 'sharp';

/** An image's decoded pixels, row after row. */
export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * Pixels by the encoded image they came from. A page is read by several steps (the crop, the
 * lighting check, grayscale, the page picture, the native reader), and each decoded its PNG again:
 * ~15 ms a 2-megapixel page every time. The steps of a page follow each other closely, so a few
 * pages' pixels are enough: the used longest ago go past MAX_BYTES (a 3500-pixel page is 27 MB in
 * colour, and a job's five pages kept to its end were 180 MB), to be decoded again if asked.
 */
const MAX_BYTES = 96 * 1024 * 1024;
/** In order of use, the most recent last; `bytes` is known once decoded. */
const cache = new Map<Buffer, { pixels: Promise<Pixels>; bytes: number }>();
let bytes = 0;

function keep(image: Buffer, pixels: Promise<Pixels>): void {
  forget(image);
  const entry = { pixels, bytes: 0 };
  cache.set(image, entry);
  pixels.then(
    ({ data }) => {
      if (cache.get(image) !== entry) return; // forgotten meanwhile
      entry.bytes = data.byteLength;
      bytes += entry.bytes;
      for (const [oldest] of cache) {
        if (bytes <= MAX_BYTES || oldest === image) break;
        forget(oldest);
      }
    },
    // A failed decode is not kept: the next reader tries again and gets the error itself.
    () => {
      if (cache.get(image) === entry) forget(image);
    },
  );
}

function forget(image: Buffer): void {
  bytes -= cache.get(image)?.bytes ?? 0;
  cache.delete(image);
}

/** Pixels kept for this image, now the most recently used. */
function kept(image: Buffer): Promise<Pixels> | undefined {
  const entry = cache.get(image);
  if (!entry) return undefined;
  cache.delete(image);
  cache.set(image, entry);
  return entry.pixels;
}

/** The pixels of an encoded page image (PNG or JPEG), decoded on the first call for that buffer. */
export function pixelsOf(image: Buffer): Promise<Pixels> {
  let pixels = kept(image);
  if (!pixels) {
    pixels = decode(image);
    keep(image, pixels);
  }
  return pixels;
}

/** A gray image stays one band: sharp's raw output is sRGB unless told otherwise, three times the memory. */
async function decode(image: Buffer): Promise<Pixels> {
  const gray = ((await sharp(image).metadata()).channels ?? 3) <= 2;
  const pipeline = sharp(image);
  const { data, info } = await (gray ? pipeline.toColourspace('b-w') : pipeline).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Records the pixels an image was encoded from, so no reader decodes it. */
export function rememberPixels(image: Buffer, pixels: Pixels): void {
  keep(image, Promise.resolve(pixels));
}

/** Pixels decoded already for this image, if any (the native reader writes them as they are). */
export function knownPixels(image: Buffer): Promise<Pixels> | undefined {
  return kept(image);
}

/** A sharp pipeline over the image's pixels rather than its encoding (one band is taken as gray, as from a gray PNG). */
export async function sharpOf(image: Buffer): Promise<Sharp> {
  const { data, width, height, channels } = await pixelsOf(image);
  return sharp(data, { raw: { width, height, channels } });
}
