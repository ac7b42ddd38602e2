import { describe, expect, it } from 'vitest';
import { billingPeriod, chargedAddress, dailyPeriod, isSubscriptionActive, quotaExceededMessage, quotaTerms, quotaUsed, quotaView, type QuotaAccount } from './quota.rules.js';

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

describe('quotaTerms', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const day = dailyPeriod(now);
  const start = new Date('2026-11-05T00:00:00Z');
  const end = new Date('2026-12-05T00:00:00Z');
  const plan = (status: string, currentPeriodEnd = end) => ({ status, currentPeriodStart: start, currentPeriodEnd, receiptLimit: 500 });
  const account = (subscription: QuotaAccount['subscription'], confirmed: boolean): QuotaAccount => ({ subscription, confirmed });
  const anonymous = { userId: null, anonId: 'a1', clientIp: '192.0.2.1' };
  const signedIn = { userId: 'u1', anonId: null, clientIp: '192.0.2.1' };
  const inTeam = { ...signedIn, workspace: { id: 't1', role: 'member' as const, personal: false } };
  it.each([
    ['an anonymous visitor: per session and per address, daily', anonymous, null, ['anon:a1', 'ip:192.0.2.1'], 5, day, false],
    ['an anonymous visitor without a known address: per session', { ...anonymous, clientIp: null }, null, ['anon:a1'], 5, day, false],
    ['a confirmed free account: per account, daily', signedIn, account(null, true), ['user:u1'], 5, day, false],
    ['an unconfirmed account: shares its address\'s allowance', signedIn, account(null, false), ['user:u1', 'ip:192.0.2.1'], 5, day, false],
    ['an account that is gone: as unconfirmed', signedIn, null, ['user:u1', 'ip:192.0.2.1'], 5, day, false],
    ['a subscriber: the plan over the billing period, counted under their own workspace', signedIn, account(plan('active'), true), ['workspace:u1'], 500, billingPeriod(start, end), true],
    ['a subscriber with an unconfirmed address: the plan all the same', signedIn, account(plan('trialing'), false), ['workspace:u1'], 500, billingPeriod(start, end), true],
    ['a member of a subscribed workspace: the workspace\'s count', inTeam, account(plan('active'), true), ['workspace:t1'], 500, billingPeriod(start, end), true],
    ['an unconfirmed member of a subscribed workspace: the workspace\'s count all the same', inTeam, account(plan('active'), false), ['workspace:t1'], 500, billingPeriod(start, end), true],
    ['a member of a workspace without a plan: their own free allowance', inTeam, account(null, true), ['user:u1'], 5, day, false],
    ['a member of a workspace whose plan lapsed: their own free allowance', inTeam, account(plan('canceled'), false), ['user:u1', 'ip:192.0.2.1'], 5, day, false],
    ['a lapsed subscription: the free allowance', signedIn, account(plan('past_due'), true), ['user:u1'], 5, day, false],
    ['an ended period: the free allowance', signedIn, account(plan('active', new Date('2026-11-22T11:00:00Z')), false), ['user:u1', 'ip:192.0.2.1'], 5, day, false],
  ])('%s', (_case, asker, acct, subjects, limit, period, subscriptionActive) => {
    expect(quotaTerms(asker, acct, now)).toEqual({ subjects, limit, period, subscriptionActive });
  });
});

describe('chargedAddress', () => {
  it.each([
    [['anon:a1', 'ip:192.0.2.1'], '192.0.2.1'],
    [['user:u1', 'ip:2001:db8::1'], '2001:db8::1'],
    [['user:u1'], null],
    [[], null],
  ])('%j → %s', (subjects, address) => {
    expect(chargedAddress(subjects)).toBe(address);
  });
});

describe('quotaUsed', () => {
  it.each([
    [[], 0],
    [[3], 3],
    [[1, 4], 4],
    [[0, 0], 0],
  ])('%j → %i', (used, most) => {
    expect(quotaUsed(used)).toBe(most);
  });
});
