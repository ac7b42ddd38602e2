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
 * ~15 ms a 2-megapixel page every time. Weak keys: the pixels go when the page's image does.
 */
const decoded = new WeakMap<Buffer, Promise<Pixels>>();

/** The pixels of an encoded page image (PNG or JPEG), decoded on the first call for that buffer. */
export function pixelsOf(image: Buffer): Promise<Pixels> {
  let pixels = decoded.get(image);
  if (!pixels) {
    pixels = decode(image);
    // A failed decode is not kept: the next reader tries again and gets the error itself.
    pixels.catch(() => decoded.delete(image));
    decoded.set(image, pixels);
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
  decoded.set(image, Promise.resolve(pixels));
}

/** Pixels decoded already for this image, if any (the native reader writes them as they are). */
export function knownPixels(image: Buffer): Promise<Pixels> | undefined {
  return decoded.get(image);
}

/** A sharp pipeline over the image's pixels rather than its encoding (one band is taken as gray, as from a gray PNG). */
export async function sharpOf(image: Buffer): Promise<Sharp> {
  const { data, width, height, channels } = await pixelsOf(image);
  return sharp(data, { raw: { width, height, channels } });
}
