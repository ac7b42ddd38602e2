import { describe, expect, it } from 'vitest';
import { queuePlaceText, waitEstimateMs } from './queue-place.rules.js';

describe('waitEstimateMs', () => {
  it.each([
    // 30 finished in 10 minutes: one every 20 s.
    [0, 30, 20_000],
    [2, 30, 60_000],
    [9, 6, 1_000_000],
    // Too few finished to tell a rate.
    [0, 2, null],
    [5, 0, null],
  ])('%i ahead, %i finished in 10 min → %j ms', (ahead, finished, expected) => {
    expect(waitEstimateMs(ahead, finished)).toBe(expected);
  });
});

describe('queuePlaceText', () => {
  it.each([
    [{ ahead: 0, waitMs: 20_000 }, 'next in line · about 20 s'],
    [{ ahead: 3, waitMs: 80_000 }, '3 ahead · about 80 s'],
    [{ ahead: 12, waitMs: 260_000 }, '12 ahead · about 4 min'],
    [{ ahead: 3, waitMs: null }, '3 ahead'],
  ])('%j → %s', (place, text) => {
    expect(queuePlaceText(place)).toBe(text);
  });
});
