import { describe, expect, it } from 'vitest';
import { kthSmallest } from './ctc-recognizer.js';

describe('kthSmallest', () => {
  it.each([
    ['distinct values', Float32Array.from({ length: 101 }, (_, i) => (i * 37) % 101)],
    ['many equal values, as a crop of paper and ink has', Float32Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? -1 : i % 3 === 0 ? 0.2 : 1))],
    ['already sorted', Float32Array.from({ length: 64 }, (_, i) => i / 64)],
    ['sorted the other way', Float32Array.from({ length: 64 }, (_, i) => -i)],
    ['one value', Float32Array.of(0.5)],
  ])('gives what sorting gives at every rank: %s', (_name, values) => {
    const sorted = Float32Array.from(values).sort();
    for (let k = 0; k < values.length; k++) expect(kthSmallest(Float32Array.from(values), k)).toBe(sorted[k]);
  });

  it('finds two ranks one after the other in the same array, as blankColumns asks', () => {
    let seed = 3;
    const values = Float32Array.from({ length: 48 * 200 }, () => (seed = (seed * 16807) % 2147483647) / 2147483647);
    const sorted = Float32Array.from(values).sort();
    const low = Math.floor(values.length * 0.05);
    const high = Math.floor(values.length * 0.95);
    expect([kthSmallest(values, low), kthSmallest(values, high)]).toEqual([sorted[low], sorted[high]]);
  });
});
