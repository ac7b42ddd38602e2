import type { EngineName, RecognizedDocument } from '@receipts/common';
import type { DecodedDocument } from '../page/page.types.js';

/** What the upload tells an engine about the receipt before it is read. */
export interface RecognizeHints {
  /** The currency the user picked. */
  currencyCode?: string;
  /** The day the receipt is judged on (validation's date range). */
  now?: Date;
}

/** An OCR engine behind one interface; the pipeline reports 40 % before and 50 % after `recognize`. */
export interface OcrEngine {
  readonly name: EngineName;
  /** Whatever this engine wants done to the pages first (grayscale, crop, scale); 30 % after it. */
  prepare(doc: DecodedDocument, signal: AbortSignal): Promise<DecodedDocument>;
  recognize(doc: DecodedDocument, signal: AbortSignal, hints?: RecognizeHints): Promise<RecognizedDocument>;
  /** Loads what the engine otherwise loads on the first page that needs it (models), so a measurement sees steady state. */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An engine's own failure (a remote model that did not answer, or refused): the upload fails
 * with this message, which names no internals, once the job's tries are spent; at once when
 * `final` (another try cannot do better). `detail` is what the operator reads in the log.
 */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    message: string,
    readonly final: boolean,
    readonly detail: string,
  ) {
    super(message);
  }
}
