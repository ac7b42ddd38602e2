import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it.each([
    ['haldirams', 'halidirams', 1],
    ['lidl', 'ledl', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['same', 'same', 0],
  ])('%s → %s: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('stops counting past a limit, answering just above it', () => {
    expect(editDistance('walmart', 'kaufland', 1)).toBe(2);
    expect(editDistance('haldirams', 'halidirams', 1)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });
});
