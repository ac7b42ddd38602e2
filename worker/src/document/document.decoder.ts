import type { AcceptedMime } from '@receipts/common';
import type { DecodedPages } from './decode.protocol.js';
import { decodeHeic } from './heic.decoder.js';
import { decodeImage, normalizeImage } from './image.decoder.js';

/**
 * Untrusted bytes to page images (and a PDF's text layer). Runs only inside a decoder process
 * (decode.child.ts); pdfjs is loaded on the first PDF.
 */
export async function decodeUntrusted(bytes: Buffer, mimeType: AcceptedMime): Promise<DecodedPages> {
  switch (mimeType) {
    case 'image/jpeg':
    case 'image/png':
    case 'image/webp':
    case 'image/gif':
      return { pages: await decodeImage(bytes, false) };
    case 'image/tiff':
      return { pages: await decodeImage(bytes, true) };
    case 'image/heic':
      return { pages: [await normalizeImage(await decodeHeic(bytes))] };
    case 'application/pdf': {
      const { decodePdf } = await import('./pdf.decoder.js');
      const pdf = await decodePdf(bytes);
      const pages = [];
      for (const page of pdf.pages) pages.push(await normalizeImage(page));
      return pdf.textLayer === undefined ? { pages } : { pages, textLayer: pdf.textLayer, textLines: pdf.textLines, pictures: pdf.pictures };
    }
  }
}
