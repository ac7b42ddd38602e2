import { totalMismatch, validateReceipt, type IssueFlag, type ReceiptRecord } from '@receipts/common';

/** Below this mean word confidence a page is barely read, whatever fields its text seems to give. */
export const LOW_CONFIDENCE = 0.4;

export interface Reading {
  receipt: ReceiptRecord;
  /** The engine's own mean confidence, 0..1. */
  confidence: number;
  /** The extraction's doubts about the key fields (a total nothing confirms, a merchant below the header, …). */
  doubts: readonly IssueFlag[];
}

/**
 * A reading is worth a second opinion (the other reader) when a key field the receipt must
 * print is missing or contradicts the arithmetic, or when the engine made little of the page.
 * A middling confidence alone is not enough: on flat scans it cost a second reading of one
 * receipt in eight for fields that were already right.
 */
export function needsSecondOpinion(reading: Reading): boolean {
  const { receipt } = reading;
  if (reading.confidence < LOW_CONFIDENCE) return true;
  if (receipt.total == null || !receipt.date || !receipt.merchantName) return true;
  return totalMismatch(receipt) !== null;
}

/**
 * tesseract's mean confidence at or above which its page was upright: on 10 SROIE scans it read
 * the upright page at 0.69–0.88 and the same page upside down at 0.28–0.35. PaddleOCR's ranges
 * overlap (0.89–0.96 upright, 0.61–0.85 upside down on world photos), so its readings always try.
 */
export const TESSERACT_UPRIGHT_CONFIDENCE = 0.55;

/**
 * Whether a poor reading may be of a turned page, worth asking OSD and reading again. A confident
 * tesseract reading was of an upright page whatever it lacks: turning it (OSD's trial bar is low)
 * cost a second full reading and found nothing.
 */
export function mayBeTurned(reading: { readBy?: string; confidence: number }): boolean {
  return !reading.readBy?.startsWith('tesseract') || reading.confidence < TESSERACT_UPRIGHT_CONFIDENCE;
}

/**
 * How much of a receipt a reading makes sense of: the key fields found and the arithmetic that
 * holds, less the issues validation raises and the doubts about its key fields (a garbled reading
 * finds values too, but little on the receipt confirms them).
 */
export function readingScore(reading: Reading, now: Date): number {
  const { receipt } = reading;
  let score = 0;
  if (receipt.total != null && receipt.total > 0) score += 3;
  if (receipt.date) score += 2;
  if (receipt.merchantName) score += 1;
  if (receipt.subtotal != null && receipt.tax != null && receipt.total != null && totalMismatch(receipt) === null) score += 2;
  return score - validateReceipt(receipt, now).length - reading.doubts.length;
}

/**
 * Whether `candidate` should replace `incumbent`: it makes more sense of the receipt. On a tie a
 * reading by the same reader (another language) wins on its confidence; a reading by the other
 * reader does not, as the two readers' confidences are not on one scale (PaddleOCR's run high)
 * and the incumbent's reader was chosen for this kind of page.
 */
export function isBetterReading(candidate: Reading, incumbent: Reading, now: Date, sameReader: boolean): boolean {
  const difference = readingScore(candidate, now) - readingScore(incumbent, now);
  return difference > 0 || (difference === 0 && sameReader && candidate.confidence > incumbent.confidence);
}
