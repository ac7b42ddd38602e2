import { describe, expect, it } from 'vitest';
import { describeVerdict, median, medianInterval, pairedRatios, verdictOf } from './paired-verdict.js';

describe('median', () => {
  it.each([
    [[3], 3],
    [[5, 1, 3], 3],
    [[4, 1, 3, 2], 2.5],
    [[0.9, 1.1], 1],
  ])('of %j is %d', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('refuses no values', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('pairedRatios', () => {
  it('divides each run by its own pair', () => {
    expect(pairedRatios([2, 3], [4, 1])).toEqual([0.5, 3]);
  });

  it('refuses sides of different lengths', () => {
    expect(() => pairedRatios([1, 2], [1])).toThrow(/different lengths/);
  });
});

describe('medianInterval', () => {
  it.each([
    // n, the order statistics (1-based) the interval runs between, its exact confidence
    [3, 1, 3, 0.75],
    [4, 1, 4, 0.875],
    [5, 1, 5, 0.9375],
    [9, 2, 8, 1 - 20 / 512],
    [15, 4, 12, 1 - 2 * (1 + 15 + 105 + 455) / 32768],
  ])('of %d values runs from the %d-th to the %d-th, %f confident', (n, from, to, confidence) => {
    // Shuffled: the interval is of the sorted values.
    const values = Array.from({ length: n }, (_, i) => ((i * 7) % n) + 1);
    const interval = medianInterval(values);
    expect([interval.low, interval.high]).toEqual([from, to]);
    expect(interval.confidence).toBeCloseTo(confidence, 10);
  });

  it('narrows as the runs add up', () => {
    const values = Array.from({ length: 41 }, (_, i) => i);
    const interval = medianInterval(values);
    expect(interval.low).toBeGreaterThan(10);
    expect(interval.high).toBeLessThan(30);
    expect(interval.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('verdictOf', () => {
  // The figures of two throughput series on one machine on one day (service ÷ bare, target ≥ 0.95).
  const fivePairs = [1.047, 0.874, 0.917, 1.001, 0.934];
  const ninePairs = [0.973, 0.95, 0.963, 1.05, 1.082, 1.077, 0.992, 0.973, 1.113];

  it.each([
    ['every pair above', [0.96, 0.97, 0.99, 1.0, 1.02], { atLeast: 0.95 }, 'met'],
    ['every pair below', [0.8, 0.85, 0.9, 0.91, 0.94], { atLeast: 0.95 }, 'NOT met'],
    ['pairs either side', fivePairs, { atLeast: 0.95 }, 'not decided'],
    ['nine pairs, the outermost either side', ninePairs, { atLeast: 0.95 }, 'met'],
    ['an upper target, all below', [120, 130, 140, 145, 149], { atMost: 150 }, 'met'],
    ['an upper target, all above', [166, 181, 181, 186, 193, 197, 233, 257, 342], { atMost: 150 }, 'NOT met'],
    ['an upper target, either side', [120, 130, 140, 155, 160], { atMost: 150 }, 'not decided'],
    ['too few runs to be 90 % sure', [0.99, 1.0, 1.01], { atLeast: 0.95 }, 'not decided'],
  ] as const)('%s: %s', (_name, values, target, expected) => {
    expect(verdictOf(values, target).verdict).toBe(expected);
  });

  it('says what it decided on', () => {
    expect(describeVerdict(ninePairs, { atLeast: 0.95 }, (x) => x.toFixed(3))).toBe(
      '0.992 (target ≥ 0.950: met; 96 % interval of the median 0.963–1.082, 9 runs)',
    );
    expect(describeVerdict(fivePairs, { atLeast: 0.95 }, (x) => x.toFixed(2))).toBe(
      '0.93 (target ≥ 0.95: not decided; 93 % interval of the median 0.87–1.05, 5 runs; more runs narrow it)',
    );
    expect(describeVerdict([181], { atMost: 150 }, (x) => `${x} ms`, 'bursts')).toBe(
      '181 ms (target ≤ 150 ms: not decided; 0 % interval of the median 181 ms–181 ms, 1 burst; more runs narrow it)',
    );
  });
});
