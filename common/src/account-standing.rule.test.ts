import { describe, expect, it } from 'vitest';
import { isAdmin, isEmailVerified, normalizeEmail, type AccountFacts } from './account-standing.rule.js';

const ADMINS = ['boss@example.com'];
const account = (facts: Partial<AccountFacts>): AccountFacts => ({
  email: 'ann@example.com',
  userType: 'user',
  emailVerifiedAt: null,
  createdBeforeVerification: false,
  ...facts,
});
const proven = new Date('2026-01-02T00:00:00Z');

describe('account standing', () => {
  it('normalises addresses by trimming and lower-casing', () => {
    expect(normalizeEmail('  ADMIN@Example.com ')).toBe('admin@example.com');
  });

  it.each([
    ['a new account, unconfirmed', account({}), false, false],
    ['a new account, confirmed', account({ emailVerifiedAt: proven }), true, false],
    ['an account from before confirmation', account({ createdBeforeVerification: true }), true, false],
    ['an ADMIN_EMAILS address, unconfirmed', account({ email: 'boss@example.com' }), false, false],
    ['an ADMIN_EMAILS address, confirmed', account({ email: 'boss@example.com', emailVerifiedAt: proven }), true, true],
    ['an ADMIN_EMAILS address in another spelling, confirmed', account({ email: ' BOSS@Example.com', emailVerifiedAt: proven }), true, true],
    ['an ADMIN_EMAILS address from before confirmation', account({ email: 'boss@example.com', createdBeforeVerification: true }), false, false],
    ['an admin by role from before confirmation', account({ userType: 'admin', createdBeforeVerification: true }), false, false],
    ['an admin by role, confirmed', account({ userType: 'admin', emailVerifiedAt: proven }), true, true],
  ])('%s: verified %s, admin %s', (_, facts, verified, admin) => {
    expect(isEmailVerified(facts, ADMINS)).toBe(verified);
    expect(isAdmin(facts, ADMINS)).toBe(admin);
  });

  it('matches ADMIN_EMAILS written in another spelling', () => {
    expect(isAdmin(account({ email: 'boss@example.com', emailVerifiedAt: proven }), [' Boss@EXAMPLE.com '])).toBe(true);
  });
});
