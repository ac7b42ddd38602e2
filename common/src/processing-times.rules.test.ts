import { describe, expect, it } from 'vitest';
import { durationText, laneSpeed, type ProcessingTimes } from './processing-times.rules.js';

describe('processing times', () => {
  it.each([
    [400, '1 s'],
    [8_200, '8 s'],
    [89_000, '89 s'],
    [150_000, '3 min'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
  ])('%i ms reads %s', (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });

  const times: ProcessingTimes = {
    hours: 24,
    lanes: [
      { lane: 'express', receipts: 42, p50Ms: 8_200, p95Ms: 21_000 },
      { lane: 'standard', receipts: 4, p50Ms: 30_000, p95Ms: 60_000 },
    ],
  };

  it('says a lane’s typical time and its 95th percentile, from enough receipts only', () => {
    expect(laneSpeed(times, 'express')).toEqual({ typical: '8 s', within: '95 % within 21 s', basis: '42 receipts in the last 24 h' });
    expect(laneSpeed(times, 'standard')).toBeNull();
    expect(laneSpeed(undefined, 'express')).toBeNull();
    expect(laneSpeed({ hours: 24, lanes: [] }, 'express')).toBeNull();
  });
});
