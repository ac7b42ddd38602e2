import { ISO_4217 } from './extraction/currency.rule.js';

/**
 * Extraction accuracy the pages may state, as measured by `npm run bench:accuracy` (local
 * tesseract.js engine, the 40 labelled SROIE receipts in ../shared/receipts). Re-run the
 * command and update these figures when the extraction rules or the engine change.
 */
export const MEASURED_ACCURACY = {
  receipts: 40,
  /** Share of receipts whose total was read exactly. */
  total: 0.95,
  /** Share of receipts whose date was read as the right calendar day. */
  date: 0.95,
  /** Share of receipts whose merchant name was read (similarity ≥ 0.8). */
  merchant: 0.9,
} as const;

/** Currencies a receipt can be recorded in: every ISO 4217 code the extraction recognises. */
export const SUPPORTED_CURRENCY_COUNT = ISO_4217.size;

/** OCR languages the default engine ships with (tesseract.js language data from npm). */
export const BUNDLED_OCR_LANGUAGES = ['English'] as const;
