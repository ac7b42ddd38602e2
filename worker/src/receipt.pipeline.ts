import {
  extractReceipt,
  isExportValid,
  validateReceipt,
  type AcceptedMime,
  type PipelineStep,
  type ReceiptRecord,
} from '@receipts/common';
import { decodeDocument } from './document/decode-document.js';
import type { OcrEngine } from './ocr/ocr-engine.js';

export interface PipelineInput {
  bytes: Buffer;
  mimeType: AcceptedMime;
  /** Currency the user picked; a hint when the receipt does not show one. */
  currencyCode?: string;
}

export interface PipelineResult {
  receipt: ReceiptRecord;
  /** The whole recognized text (the record holds only its preview). */
  fullText: string;
  issues: string[];
  valid: boolean;
  /** Time the engine spent recognising the pages (the OCR histogram). */
  ocrMs: number;
}

/**
 * File → receipt, as named steps. `onStep` is awaited after each milestone so the caller can
 * report progress; the worker and the extract CLI run this same function.
 */
export async function runPipeline(
  input: PipelineInput,
  engine: OcrEngine,
  onStep: (step: PipelineStep) => Promise<void>,
  signal: AbortSignal,
  now: Date = new Date(),
): Promise<PipelineResult> {
  await onStep('loaded');
  const decoded = await decodeDocument(input.bytes, input.mimeType, signal);
  await onStep('decoded');
  const prepared = await engine.prepare(decoded, signal);
  await onStep('prepared');
  await onStep('recognizing');
  const ocrStarted = performance.now();
  const recognized = await engine.recognize(prepared, signal);
  const ocrMs = performance.now() - ocrStarted;
  await onStep('recognized');
  signal.throwIfAborted();
  const receipt = extractReceipt(recognized, { currencyCode: input.currencyCode, now });
  await onStep('extracted');
  const issues = validateReceipt(receipt, now);
  await onStep('validated');
  return { receipt, fullText: recognized.content, issues, valid: isExportValid(receipt, issues), ocrMs };
}
