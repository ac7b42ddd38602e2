import { describe, expect, it } from 'vitest';
import { billingPeriod, dailyPeriod, isSubscriptionActive, quotaExceededMessage, quotaView } from './quota.rules.js';

describe('quota rules', () => {
  it('daily periods run midnight to midnight UTC', () => {
    const p = dailyPeriod(new Date('2026-11-22T23:59:59Z'));
    expect(p.key).toBe('day:2026-11-22');
    expect(p.resetsAt.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(dailyPeriod(new Date('2026-11-23T00:00:00Z')).key).toBe('day:2026-11-23');
  });

  it('billing periods are keyed by their start and reset at their end', () => {
    const p = billingPeriod(new Date('2026-11-05T10:00:00Z'), new Date('2026-12-05T10:00:00Z'));
    expect(p).toEqual({ key: 'month:2026-11-05T10:00:00.000Z', resetsAt: new Date('2026-12-05T10:00:00Z') });
  });

  it.each([
    [0, 5, 0, true],
    [4, 5, 80, true],
    [5, 5, 100, false],
    [7, 5, 100, false],
    [333, 1000, 33, true],
  ])('used %i of %i → %i%%, canProcess %s', (used, limit, percentage, canProcess) => {
    expect(quotaView(used, limit, new Date(0))).toMatchObject({ used, limit, percentage, canProcess });
  });

  it('words the limit for signed-in and anonymous visitors', () => {
    expect(quotaExceededMessage(true)).toBe('Exceed daily limit of 5 receipts. Please upgrade to premium');
    expect(quotaExceededMessage(false)).toBe('Daily limit of 5 receipts exceeded. Sign up for more!');
  });
});

describe('isSubscriptionActive', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const future = new Date('2026-12-01T00:00:00Z');
  it.each([
    [{ status: 'active', currentPeriodEnd: future }, true],
    [{ status: 'trialing', currentPeriodEnd: future }, true],
    [{ status: 'past_due', currentPeriodEnd: future }, false],
    [{ status: 'incomplete', currentPeriodEnd: future }, false],
    [{ status: 'active', currentPeriodEnd: new Date('2026-11-22T11:59:59Z') }, false],
    [null, false],
  ])('%j → %s', (sub, active) => {
    expect(isSubscriptionActive(sub, now)).toBe(active);
  });
});
