import convert from 'heic-convert';
import { UnreadableFileError } from '../ocr/ocr-engine.js';

/** HEIC/HEIF (iPhone photos) to PNG: sharp's bundled libvips cannot decode HEVC. */
export async function decodeHeic(bytes: Buffer): Promise<Buffer> {
  try {
    const png = await convert({ buffer: bytes, format: 'PNG' });
    return Buffer.from(png);
  } catch {
    throw new UnreadableFileError('This HEIC file contains no readable image.');
  }
}
