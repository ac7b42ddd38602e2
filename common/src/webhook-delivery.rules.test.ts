import { describe, expect, it } from 'vitest';
import { answerVerdict, WEBHOOK_RETRY_SCHEDULE_MS, webhookAttempts, webhookRetryDelayMs } from './webhook-delivery.rules.js';

describe('the retry schedule', () => {
  const hours = (ms: number) => ms / 3600_000;

  it('spreads ten attempts over about a day, each wait at least as long as the one before', () => {
    expect(webhookAttempts(WEBHOOK_RETRY_SCHEDULE_MS)).toBe(10);
    const total = WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(hours(total)).toBeGreaterThanOrEqual(23.5);
    expect(hours(total)).toBeLessThanOrEqual(24.5);
    for (let i = 1; i < WEBHOOK_RETRY_SCHEDULE_MS.length; i++) expect(WEBHOOK_RETRY_SCHEDULE_MS[i]!).toBeGreaterThanOrEqual(WEBHOOK_RETRY_SCHEDULE_MS[i - 1]!);
    // The first retry comes soon: a receiver that blinked gets its event within minutes.
    expect(WEBHOOK_RETRY_SCHEDULE_MS[0]).toBeLessThanOrEqual(60_000);
  });

  it.each([
    [0, null],
    [1, 60_000],
    [2, 300_000],
    [9, 8 * 3600_000],
    [10, null],
  ])('after %i failed attempts waits %s ms', (failed, wait) => {
    expect(webhookRetryDelayMs(WEBHOOK_RETRY_SCHEDULE_MS, failed)).toBe(wait);
  });

  it('follows a schedule of the operator', () => {
    expect(webhookAttempts([100, 200])).toBe(3);
    expect(webhookRetryDelayMs([100, 200], 2)).toBe(200);
    expect(webhookRetryDelayMs([100, 200], 3)).toBeNull();
    expect(webhookRetryDelayMs([], 1)).toBeNull();
  });
});

describe('answerVerdict', () => {
  it.each([
    [200, null, { ok: true }],
    [204, null, { ok: true }],
    [299, null, { ok: true }],
    [302, 'http://10.0.0.1/', { ok: false, error: 'Answered 302 to http://10.0.0.1/; redirects are not followed.' }],
    [301, null, { ok: false, error: 'Answered 301; redirects are not followed.' }],
    [304, null, { ok: false, error: 'Answered 304; redirects are not followed.' }],
    [400, null, { ok: false, error: 'Answered 400.' }],
    [500, null, { ok: false, error: 'Answered 500.' }],
    [101, null, { ok: false, error: 'Answered 101.' }],
  ])('%i', (status, location, verdict) => {
    expect(answerVerdict(status, location)).toEqual(verdict);
  });
});
