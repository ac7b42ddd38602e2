import { MAX_DOCUMENT_PAGES } from '@receipts/common';

/** Refuse images that would decode to more pixels than any receipt needs (decompression bombs). */
export const MAX_INPUT_PIXELS = 80_000_000;
/** Long side OCR gets: enough for receipt print on an A4 scan, bounded in time and memory. */
export const MAX_OCR_SIDE = 3500;
/** Longer PDFs and multi-page TIFFs are read up to here (the rest is ignored); common owns the number, as the file store keeps a picture per page. */
export const MAX_PDF_PAGES = MAX_DOCUMENT_PAGES;

/** What the user reads when a file is refused for its size or cost (besides each decoder's own messages). */
export const DECODE_MESSAGES = {
  imageTooLarge: 'This image is too large to process (more than 80 megapixels).',
  fileTooLarge: 'This file is too large to process (more than 80 megapixels).',
  pdfTooSlow: 'This PDF is too complex to read in time.',
  fileTooSlow: 'This file is too complex to read in time.',
  tooMuchMemory: 'This file is too large or complex to process.',
} as const;
