import sharp from 'sharp';
import type { PageImage } from '../page/page.types.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { DECODE_MESSAGES, MAX_INPUT_PIXELS, MAX_OCR_SIDE, MAX_PDF_PAGES } from './decode.limits.js';

const DAMAGED = 'This image could not be read: the file is damaged or incomplete.';

function readableError(err: unknown): UnreadableFileError {
  const message = (err as Error).message;
  if (/pixel limit/i.test(message)) return new UnreadableFileError(DECODE_MESSAGES.imageTooLarge, { cause: err });
  return new UnreadableFileError(DAMAGED, { cause: err });
}

/**
 * One page (frame) of an image as a colour PNG the right way up (EXIF orientation applied),
 * transparency on white, scaled down to what OCR needs. sharp refuses more than
 * MAX_INPUT_PIXELS from the header, before decoding. Fails, with a message for the user, on
 * what is not a readable image.
 */
export async function normalizeImage(bytes: Buffer, page = 0): Promise<PageImage> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', page })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: MAX_OCR_SIDE, height: MAX_OCR_SIDE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    return { image: data, width: info.width, height: info.height };
  } catch (err) {
    throw readableError(err);
  }
}

/**
 * JPEG, PNG, WebP, GIF (first frame) and TIFF (each page a page, the first MAX_PDF_PAGES) as
 * page images.
 */
export async function decodeImage(bytes: Buffer, multiPage: boolean): Promise<PageImage[]> {
  if (!multiPage) return [await normalizeImage(bytes)];
  let pages: number;
  try {
    // The header only: sharp reads no pixels for metadata.
    pages = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).pages ?? 1;
  } catch (err) {
    throw readableError(err);
  }
  const images: PageImage[] = [];
  // One page at a time: a many-page scan never holds more than one decoded page.
  for (let page = 0; page < Math.min(pages, MAX_PDF_PAGES); page++) images.push(await normalizeImage(bytes, page));
  return images;
}
