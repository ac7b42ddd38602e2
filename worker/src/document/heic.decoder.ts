import convert from 'heic-convert';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { DECODE_MESSAGES, MAX_INPUT_PIXELS } from './decode.limits.js';
import { heicImageSizes } from './heic-header.parser.js';

const NO_IMAGE = 'This HEIC file contains no readable image.';

/**
 * HEIC/HEIF (iPhone photos) to PNG: sharp's bundled libvips cannot decode HEVC. The declared
 * size is checked first: heic-convert decodes the whole image before anyone could look.
 */
export async function decodeHeic(bytes: Buffer): Promise<Buffer> {
  const sizes = heicImageSizes(bytes);
  // libheif refuses an image without ispe too; this way nothing is decoded to find out.
  if (sizes.length === 0) throw new UnreadableFileError(NO_IMAGE);
  if (sizes.some((s) => s.width * s.height > MAX_INPUT_PIXELS)) throw new UnreadableFileError(DECODE_MESSAGES.imageTooLarge);
  try {
    const png = await convert({ buffer: bytes, format: 'PNG' });
    return Buffer.from(png);
  } catch (err) {
    throw new UnreadableFileError(NO_IMAGE, { cause: err });
  }
}
