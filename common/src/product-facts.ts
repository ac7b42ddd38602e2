import { ISO_4217 } from './extraction/currency.rule.js';

/**
 * Extraction accuracy the pages may state, as measured by `npm run bench:accuracy` (the local
 * engine) on the two labelled sets in ../shared: shares of receipts whose field was read right
 * (total exact, date the right calendar day, merchant name similarity ≥ 0.8, currency the
 * labelled ISO code without the user's hint). Re-run the command and update these figures when
 * the extraction rules or the engines change.
 */
export const MEASURED_ACCURACY = {
  scans: {
    receipts: 40,
    description: 'flat scans of shop receipts from Malaysia',
    total: 0.95,
    date: 1,
    merchant: 0.9,
  },
  world: {
    receipts: 55,
    description: 'real-world phone photos, scans and PDFs from 13 countries in 6 languages',
    total: 0.91,
    date: 0.93,
    merchant: 0.82,
    currency: 0.95,
  },
} as const;

/** Currencies a receipt can be recorded in: every ISO 4217 code the extraction recognises. */
export const SUPPORTED_CURRENCY_COUNT = ISO_4217.size;

/** OCR languages the default engine ships with (tesseract.js language data from npm; PaddleOCR reads Latin and CJK print). */
export const BUNDLED_OCR_LANGUAGES = ['English', 'German', 'French', 'Spanish', 'Portuguese', 'Italian', 'Dutch', 'Japanese'] as const;

/** Of those, the languages of the receipts the accuracy benchmark has measured. */
export const MEASURED_OCR_LANGUAGES = ['English', 'German', 'French', 'Spanish', 'Portuguese', 'Japanese'] as const;
