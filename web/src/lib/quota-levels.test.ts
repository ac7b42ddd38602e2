import { describe, expect, it } from 'vitest';
import { daysUntil, quotaColour, quotaWarning } from './quota-levels.js';

describe('quota warning levels (spec §4)', () => {
  it.each([
    [0, null],
    [79, null],
    [79.9, null],
    [80, 'High Usage Warning'],
    [89, 'High Usage Warning'],
    [90, 'Quota Almost Exhausted'],
    [100, 'Quota Almost Exhausted'],
  ])('%d %% → %s', (pct, title) => {
    expect(quotaWarning(pct)?.title ?? null).toBe(title);
  });
});

describe('quota colour (spec §4)', () => {
  it.each([
    [0, 'green'],
    [74, 'green'],
    [75, 'orange'],
    [89, 'orange'],
    [90, 'red'],
    [120, 'red'],
  ])('%d %% is %s', (pct, colour) => {
    expect(quotaColour(pct)).toBe(colour);
  });
});

describe('days until reset', () => {
  const now = new Date('2025-03-01T12:00:00Z');
  it.each([
    ['2025-03-02T00:00:00Z', 0],
    ['2025-03-02T12:00:00Z', 1],
    ['2025-03-31T12:00:00Z', 30],
    ['2025-02-01T00:00:00Z', 0],
    ['not a date', 0],
  ])('%s → %d', (reset, days) => {
    expect(daysUntil(reset, now)).toBe(days);
  });
});
