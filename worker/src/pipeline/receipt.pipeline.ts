import {
  applyMerchantRules,
  extractReceiptWithSources,
  type MerchantRule,
  isExportValid,
  type ReceiptSources,
  type RecognizedLine,
  doubtsAfterEdit,
  receiptIssues,
  withinMoneyBounds,
  type AcceptedMime,
  type PipelineStep,
  type IssueFlag,
  type ReceiptRecord,
} from '@receipts/common';
import { decodeDocument } from '../document/decode-document.js';
import type { OcrEngine } from '../ocr/ocr-engine.js';

export interface PipelineInput {
  bytes: Buffer;
  mimeType: AcceptedMime;
  /** Currency the user picked; a hint when the receipt does not show one. */
  currencyCode?: string;
  /** The owner's learned rules (merchant names, categories), applied after extraction. */
  rules?: readonly MerchantRule[];
}

export interface PipelineResult {
  receipt: ReceiptRecord;
  /** The merchant as extracted, before the owner's rules renamed it. */
  merchantRead?: string;
  /** How many of the owner's rules changed the receipt. */
  rulesApplied: number;
  /** The whole recognized text (the record holds only its preview). */
  fullText: string;
  issues: IssueFlag[];
  valid: boolean;
  /** Every recognised line with its place on the original (empty when the engine gives none). */
  lines: RecognizedLine[];
  /** Which of `lines` each field came from (only when the engine gave lines). */
  fieldLines: ReceiptSources;
  /** Which reader produced the text (`tesseract:eng`, `paddle`, `pdf-text`, …). */
  readBy?: string;
  /** Per page, the quarter turn that shows its picture the way it was read (empty: as decoded). */
  pageTurns: number[];
  /** Time the engine spent recognising the pages (the OCR histogram). */
  ocrMs: number;
  /** Each page as a viewer shows it (PNG), the frame the lines' boxes are in: what the review screen shows. */
  pictures: Buffer[];
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
  const pictures = decoded.pictures ?? decoded.pages.map((p) => p.image);
  await onStep('decoded');
  const prepared = await engine.prepare(decoded, signal);
  await onStep('prepared');
  await onStep('recognizing');
  const ocrStarted = performance.now();
  const recognized = await engine.recognize(prepared, signal, { currencyCode: input.currencyCode, now });
  const ocrMs = performance.now() - ocrStarted;
  await onStep('recognized');
  signal.throwIfAborted();
  const extracted = extractReceiptWithSources(recognized, { currencyCode: input.currencyCode, now });
  const learned = applyMerchantRules(withinMoneyBounds(extracted.receipt), input.rules ?? []);
  const { receipt } = learned;
  const { sources } = extracted;
  await onStep('extracted');
  // A merchant an owner's rule named was named by a person: no doubt about it stands.
  const doubts = learned.applied.some((r) => r.kind === 'merchant') ? doubtsAfterEdit(extracted.doubts, new Set(['merchantName'])) : extracted.doubts;
  const issues = receiptIssues(receipt, doubts, now);
  await onStep('validated');
  const lines = recognized.lines ?? [];
  return {
    receipt,
    merchantRead: learned.merchantRead,
    rulesApplied: learned.applied.length,
    fullText: recognized.content,
    lines,
    fieldLines: lines.length > 0 ? sources : {},
    readBy: recognized.readBy,
    pageTurns: recognized.pageTurns ?? [],
    issues,
    valid: isExportValid(receipt, issues),
    ocrMs,
    pictures,
  };
}
