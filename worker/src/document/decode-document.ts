import type { AcceptedMime } from '@receipts/common';
import type { DecodedDocument } from '../page/page.types.js';
import { decodeSandbox } from './decode.sandbox.js';

export { MAX_INPUT_PIXELS, MAX_OCR_SIDE, MAX_PDF_PAGES } from './decode.limits.js';

/**
 * Turns an uploaded file into page images (colour PNG, upright, long side ≤ MAX_OCR_SIDE),
 * and a PDF's text layer with its lines when it has one. The decoding itself runs in a
 * sandboxed decoder process (decode.sandbox.ts); files that are damaged, too large or too
 * costly fail with an UnreadableFileError the user can read.
 */
export async function decodeDocument(bytes: Buffer, mimeType: AcceptedMime, signal: AbortSignal): Promise<DecodedDocument> {
  const decoded = await decodeSandbox().decode(bytes, mimeType, signal);
  return { mimeType, original: bytes, ...decoded };
}
