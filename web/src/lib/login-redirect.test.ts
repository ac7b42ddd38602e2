import { describe, expect, it } from 'vitest';
import { isLocalPath, loginDestination, loginPathFor, subscribePath } from './login-redirect.js';

const pending = { planId: 'business', stripePriceId: 'price_b' };

describe('login destination (spec §4)', () => {
  it.each([
    ['/subscribe?plan=starter&price=p1', null, '/subscribe?plan=starter&price=p1'],
    ['/billing', pending, '/billing'],
    ['https://evil.example/x', null, '/dashboard'],
    ['/redirect?to=https://evil.example', null, '/dashboard'],
    ['//evil.example', null, '/dashboard'],
    ['/\\evil.example', null, '/dashboard'],
    ['dashboard', null, '/dashboard'],
    [null, pending, '/subscribe?plan=business&price=price_b'],
    ['https://evil.example', pending, '/subscribe?plan=business&price=price_b'],
    [null, null, '/dashboard'],
  ])('redirect %s with pending %j goes to %s', (redirect, pend, expected) => {
    expect(loginDestination(redirect, pend)).toBe(expected);
  });

  it('accepts only local paths', () => {
    expect(isLocalPath('/pricing')).toBe(true);
    expect(isLocalPath('')).toBe(false);
    expect(isLocalPath(undefined)).toBe(false);
  });

  it('builds the login link back to a subscribe url', () => {
    const target = subscribePath('pro fessional', 'price&1');
    expect(target).toBe('/subscribe?plan=pro+fessional&price=price%261');
    const back = new URLSearchParams(loginPathFor(target).split('?')[1]).get('redirect');
    expect(back).toBe(target);
  });
});
