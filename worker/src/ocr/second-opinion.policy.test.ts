import { issueFlag, type ReceiptRecord } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { isBetterReading, mayBeTurned, needsSecondOpinion, readingScore } from './second-opinion.policy.js';

const now = new Date('2025-06-01T12:00:00Z');
const receipt = (over: Partial<ReceiptRecord> = {}): ReceiptRecord => ({
  merchantName: 'CORNER SHOP',
  date: '2025-05-30',
  total: 12.5,
  category: 'other',
  quality: 0.9,
  items: [],
  rawText: '',
  ...over,
});

describe('needsSecondOpinion', () => {
  it.each([
    ['a confident reading with merchant, date and total', receipt(), 0.85, false],
    ['a page the engine made little of', receipt(), 0.3, true],
    ['a middling confidence with every key field', receipt(), 0.55, false],
    ['no total', receipt({ total: null }), 0.9, true],
    ['no date', receipt({ date: undefined }), 0.9, true],
    ['no merchant', receipt({ merchantName: undefined }), 0.9, true],
    ['a total that contradicts subtotal + tax', receipt({ subtotal: 10, tax: 1, total: 17.5 }), 0.9, true],
    ['a total that agrees with subtotal + tax', receipt({ subtotal: 11.5, tax: 1, total: 12.5 }), 0.9, false],
  ])('%s → %s', (_, r, confidence, expected) => {
    expect(needsSecondOpinion({ receipt: r, confidence, doubts: [] })).toBe(expected);
  });
});

describe('mayBeTurned', () => {
  it.each([
    ['a confident tesseract reading', 'tesseract:eng', 0.77, false],
    ['a tesseract reading at upside-down confidence', 'tesseract:eng', 0.33, true],
    ['a tesseract reading in another language, just below the bar', 'tesseract:deu', 0.54, true],
    ['a PaddleOCR reading, however confident', 'paddle', 0.95, true],
  ])('%s: %s', (_name, readBy, confidence, expected) => {
    expect(mayBeTurned({ confidence, readBy })).toBe(expected);
  });
});

describe('isBetterReading', () => {
  const better = (a: ReceiptRecord, ca: number, b: ReceiptRecord, cb: number, same = false) =>
    isBetterReading({ receipt: a, confidence: ca, doubts: [] }, { receipt: b, confidence: cb, doubts: [] }, now, same);
  it('takes the reading that found the total over a more confident one that did not', () => {
    expect(better(receipt(), 0.5, receipt({ total: null }), 0.95)).toBe(true);
    expect(better(receipt({ total: null }), 0.95, receipt(), 0.5)).toBe(false);
  });
  it('takes arithmetic that holds', () => {
    expect(better(receipt({ subtotal: 11.5, tax: 1 }), 0.6, receipt({ subtotal: 10, tax: 1, total: 17.5 }), 0.6)).toBe(true);
  });
  it('keeps the incumbent on a tie with the other reader, however confident', () => {
    expect(better(receipt(), 0.99, receipt(), 0.55)).toBe(false);
  });
  it('breaks a tie by confidence between readings of the same reader', () => {
    expect(better(receipt(), 0.9, receipt(), 0.7, true)).toBe(true);
    expect(better(receipt(), 0.7, receipt(), 0.9, true)).toBe(false);
  });
  it('counts validation issues against a reading', () => {
    expect(readingScore({ receipt: receipt({ date: '1999-01-01' }), confidence: 1, doubts: [] }, now)).toBeLessThan(readingScore({ receipt: receipt(), confidence: 1, doubts: [] }, now));
  });
  it('takes the reading whose key fields the receipt confirms over one that only found values', () => {
    const found = { receipt: receipt(), confidence: 0.9, doubts: [issueFlag('totalUnconfirmed'), issueFlag('merchantBelowHeader')] };
    const confirmed = { receipt: receipt(), confidence: 0.6, doubts: [issueFlag('merchantUnconfirmed')] };
    expect(isBetterReading(confirmed, found, now, false)).toBe(true);
    expect(isBetterReading(found, confirmed, now, false)).toBe(false);
  });
});
