import type { AcceptedMime } from '@receipts/common';
import sharp from 'sharp';
import { UnreadableFileError, type DecodedDocument, type PageImage } from '../ocr/ocr-engine.js';
import { decodeHeic } from './heic.decoder.js';
import { decodePdf } from './pdf.decoder.js';

/** Refuse images that would decode to more pixels than any receipt needs (decompression bombs). */
export const MAX_INPUT_PIXELS = 80_000_000;
/** Long side OCR gets: enough for receipt print on an A4 scan, bounded in time and memory. */
export const MAX_OCR_SIDE = 3500;

/** Turns an uploaded file into page images, and a PDF's text layer when it has one. */
export async function decodeDocument(bytes: Buffer, mimeType: AcceptedMime, signal: AbortSignal): Promise<DecodedDocument> {
  signal.throwIfAborted();
  switch (mimeType) {
    case 'image/jpeg':
    case 'image/png':
    case 'image/webp':
      return { mimeType, original: bytes, pages: [await normalizeImage(bytes)] };
    case 'image/heic':
      return { mimeType, original: bytes, pages: [await normalizeImage(await decodeHeic(bytes))] };
    case 'application/pdf': {
      const pdf = await decodePdf(bytes, signal);
      const pages = await Promise.all(pdf.pages.map((page) => normalizeImage(page)));
      return { mimeType, original: bytes, pages, textLayer: pdf.textLayer };
    }
  }
}

/**
 * Any image as a grayscale PNG the right way up (EXIF orientation applied), scaled down to
 * what OCR needs. Fails, with a message for the user, on what is not a readable image.
 */
export async function normalizeImage(bytes: Buffer): Promise<PageImage> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: MAX_OCR_SIDE, height: MAX_OCR_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    return { image: data, width: info.width, height: info.height };
  } catch (err) {
    const message = (err as Error).message;
    if (/pixel limit/i.test(message)) throw new UnreadableFileError('This image is too large to process (more than 80 megapixels).');
    throw new UnreadableFileError('This image could not be read: the file is damaged or incomplete.');
  }
}
