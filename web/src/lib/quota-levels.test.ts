import { describe, expect, it } from 'vitest';
import { daysUntil, quotaColour, quotaWarning, resetLabel } from './quota-levels.js';

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

describe('days until reset, in the viewer’s calendar', () => {
  // Local times: the card reads the dates as the viewer's calendar has them.
  const now = new Date(2025, 2, 1, 12, 0);
  const at = (day: number, hour = 0) => new Date(2025, 2, day, hour).toISOString();
  it.each([
    [at(1, 23), 0, 'Today'],
    // Midnight tonight is tomorrow's date: the card says Tomorrow beside it, never Today.
    [at(2, 0), 1, 'Tomorrow'],
    [at(2, 12), 1, 'Tomorrow'],
    [at(31, 12), 30, '30 days'],
    [new Date(2025, 1, 1).toISOString(), 0, 'Today'],
    ['not a date', 0, 'Today'],
  ])('%s → %d (%s)', (reset, days, label) => {
    expect(daysUntil(reset, now)).toBe(days);
    expect(resetLabel(reset, now)).toBe(label);
  });
});
