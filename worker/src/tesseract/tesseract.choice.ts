import { probeNativeTesseract } from './tesseract-native.reader.js';
import type { TesseractBackend } from './tesseract.reader.js';

/** Which tesseract backend a process uses, and why (for its start-up log line). */
export interface TesseractChoice {
  backend: TesseractBackend;
  reason: string;
}

/**
 * OCR_TESSERACT resolved once at start-up: `native` wants the installed tesseract program (or the
 * process does not start); `auto` takes it when it answers and tesseract.js otherwise; `wasm`
 * never asks. Both read the models of the npm language packages, so OCR_LANGS is the same for both.
 */
export function chooseTesseract(mode: 'auto' | 'wasm' | 'native'): TesseractChoice {
  if (mode === 'wasm') return { backend: 'wasm', reason: 'OCR_TESSERACT=wasm' };
  const probe = probeNativeTesseract();
  if (probe.ok) return { backend: 'native', reason: probe.version };
  if (mode === 'native') throw new Error(`OCR_TESSERACT=native, but the tesseract program does not answer (${probe.reason}); install it (Debian: apt-get install tesseract-ocr)`);
  return { backend: 'wasm', reason: `no tesseract program (${probe.reason})` };
}
