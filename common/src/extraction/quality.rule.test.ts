import { describe, expect, it } from 'vitest';
import { computeQuality } from './quality.rule.js';

describe('computeQuality (spec §5)', () => {
  it.each<[Parameters<typeof computeQuality>[0], number | undefined, number]>([
    // No field: the field part is 0.5; no document confidence: 0.8.
    [{}, undefined, 0.7 * 0.5 + 0.3 * 0.8],
    [{}, 0.2, 0.7 * 0.5 + 0.3 * 0.2],
    // All fields sure: 0.7 + 0.3 × document.
    [{ merchant: 1, total: 1, date: 1, items: 1 }, 0.9, 0.97],
    // Weighted by 0.3 / 0.4 / 0.2 / 0.1 over the fields present.
    [{ merchant: 0.5, total: 1 }, 1, 0.7 * ((0.3 * 0.5 + 0.4) / 0.7) + 0.3],
    [{ merchant: 1, total: 0.5, date: 0.5, items: 0 }, 0.5, 0.7 * (0.3 + 0.2 + 0.1) + 0.15],
    // Capped at 1.
    [{ merchant: 1.2, total: 1.2 }, 1.5, 1],
  ])('fields %j, document %s → %s', (fields, doc, expected) => {
    expect(computeQuality(fields, doc)).toBeCloseTo(expected, 3);
  });
});
