import type { ReceiptRecord } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { needsSecondOpinion, readingScore } from './second-opinion.policy.js';

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
    ['low engine confidence', receipt(), 0.4, true],
    ['no total', receipt({ total: null }), 0.9, true],
    ['no date', receipt({ date: undefined }), 0.9, true],
    ['no merchant', receipt({ merchantName: undefined }), 0.9, true],
    ['a total that contradicts subtotal + tax', receipt({ subtotal: 10, tax: 1, total: 17.5 }), 0.9, true],
    ['a total that agrees with subtotal + tax', receipt({ subtotal: 11.5, tax: 1, total: 12.5 }), 0.9, false],
  ])('%s → %s', (_, r, confidence, expected) => {
    expect(needsSecondOpinion({ receipt: r, confidence })).toBe(expected);
  });
});

describe('readingScore', () => {
  it('prefers the reading that found the total over a more confident one that did not', () => {
    expect(readingScore({ receipt: receipt(), confidence: 0.5 }, now)).toBeGreaterThan(readingScore({ receipt: receipt({ total: null }), confidence: 0.95 }, now));
  });
  it('prefers arithmetic that holds', () => {
    const holds = readingScore({ receipt: receipt({ subtotal: 11.5, tax: 1 }), confidence: 0.6 }, now);
    const breaks = readingScore({ receipt: receipt({ subtotal: 10, tax: 1, total: 17.5 }), confidence: 0.6 }, now);
    expect(holds).toBeGreaterThan(breaks);
  });
  it('breaks a tie by confidence', () => {
    expect(readingScore({ receipt: receipt(), confidence: 0.9 }, now)).toBeGreaterThan(readingScore({ receipt: receipt(), confidence: 0.7 }, now));
  });
});
