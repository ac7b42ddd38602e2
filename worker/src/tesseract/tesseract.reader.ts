import type { PageLine } from '../page/page.types.js';

/** Longer than any receipt page takes (a long receipt: ~10 s on a busy core). */
export const DEFAULT_PAGE_TIMEOUT_MS = 30_000;

/**
 * How both tesseract backends read a page, so they give the same lines: one text block
 * (`--psm 6`, what tesseract.js leaves as its API default), the LSTM recogniser only, and the
 * resolution the clean-up brings text to (decoded pages carry no trustworthy one; tesseract
 * would warn and guess on every page).
 */
export const TESSERACT_READING = { psm: 6, oem: 1, dpi: 300 } as const;

export class TesseractTimeoutError extends Error {
  override name = 'TesseractTimeoutError';
  constructor(ms: number) {
    super(`tesseract gave up on a page after ${ms} ms`);
  }
}

export interface TesseractPage {
  lines: PageLine[];
  /** 0..1, tesseract's mean word confidence. */
  confidence: number;
}

/** Where tesseract runs: tesseract.js (WebAssembly, from npm) or the tesseract program installed on the host. */
export type TesseractBackend = 'wasm' | 'native';

/** Reads page images with tesseract, at most as many at once as it was made for (one per job slot). */
export interface TesseractReader {
  readonly backend: TesseractBackend;
  /**
   * Lines of `image` read with `langs` (e.g. ['deu']), in tesseract's reading order. A page that
   * takes longer than `timeoutMs` (noise it tries to read as text: a photo of a table, a wall of
   * static) rejects with TesseractTimeoutError.
   */
  recognize(image: Buffer, langs: readonly string[], signal: AbortSignal, timeoutMs?: number): Promise<TesseractPage>;
  close(): Promise<void>;
}

/** One line of words as tesseract groups them: the line's box and each word's text and confidence (0..100). */
export interface TesseractLineWords {
  box: PageLine['box'];
  words: Array<{ text: string; confidence: number }>;
  /**
   * The line's own confidence (0..100) where tesseract gives it (tesseract.js); else the mean of
   * its words, which is what tesseract computes unless a word's was clipped at 0.
   */
  confidence?: number;
}

/**
 * A page from tesseract's lines, the same way for both backends: a line is its words joined by
 * spaces; the page's confidence is the mean of every word on a line that has text.
 */
export function tesseractPage(lines: Iterable<TesseractLineWords>): TesseractPage {
  const out: PageLine[] = [];
  let sum = 0;
  let count = 0;
  for (const line of lines) {
    const text = line.words.map((w) => w.text).join(' ').trim();
    if (!text) continue;
    const words = line.words.reduce((a, w) => a + w.confidence, 0);
    sum += words;
    count += line.words.length;
    out.push({ text, confidence: (line.confidence ?? words / line.words.length) / 100, box: line.box });
  }
  return { lines: out, confidence: count ? sum / count / 100 : 0 };
}
