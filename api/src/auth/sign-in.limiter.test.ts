import type { Response } from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { KnownDevices, SIGN_IN_LIMITS, SignInLimiter, slowdownSeconds, type Admission, type SignInAttempt } from './sign-in.limiter.js';

const WINDOW_SECONDS = 900;
const limiter = (slowdownMaxSeconds = 60) =>
  new SignInLimiter((name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration }), {
    windowSeconds: WINDOW_SECONDS,
    slowdownMaxSeconds,
  });

/** One attempt through the limiter: the refusal, or how it was let through and settled. */
async function attempt(signIns: SignInLimiter, who: SignInAttempt, succeeds = false): Promise<Admission> {
  const admission = await signIns.admit(who);
  if (admission.admitted) await admission.settle(succeeds);
  return admission;
}
const fails = (signIns: SignInLimiter, source: string, email = 'owner@example.test', device: string | null = null) =>
  attempt(signIns, { source, email, device });
const owner = { email: 'owner@example.test', device: null };

describe('slowdownSeconds', () => {
  it('waits nothing up to the free failures, then doubles from 1 s up to the maximum', () => {
    const free = SIGN_IN_LIMITS.freeAccountFailures;
    expect(slowdownSeconds(free, 60)).toBe(0);
    expect([1, 2, 3, 4].map((n) => slowdownSeconds(free + n, 60))).toEqual([1, 2, 4, 8]);
    expect(slowdownSeconds(free + 30, 60)).toBe(60);
  });
});

describe('SignInLimiter', () => {
  it('refuses a source after its failures at one account, but not that source at another account', async () => {
    const signIns = limiter();
    for (let i = 0; i < SIGN_IN_LIMITS.perSourceAccount; i++) expect((await fails(signIns, '198.51.100.1')).admitted).toBe(true);
    const refused = await fails(signIns, '198.51.100.1');
    expect(refused).toMatchObject({ admitted: false });
    expect(refused.admitted === false && refused.retryAfterMs).toBeGreaterThan((WINDOW_SECONDS - 5) * 1000);
    expect((await fails(signIns, '198.51.100.1', 'other@example.test')).admitted).toBe(true);
  });

  it('refuses a source that tries many accounts', async () => {
    const signIns = limiter();
    for (let i = 0; i < SIGN_IN_LIMITS.perSource; i++) expect((await fails(signIns, '198.51.100.2', `a${i}@example.test`)).admitted).toBe(true);
    expect((await fails(signIns, '198.51.100.2', 'fresh@example.test')).admitted).toBe(false);
  });

  it('counts only failures: a success gives the pair its attempts back and the source its attempt', async () => {
    // No slowdown: the counts alone.
    const signIns = limiter(0);
    const source = '198.51.100.3';
    for (let i = 0; i < SIGN_IN_LIMITS.perSourceAccount - 1; i++) await fails(signIns, source);
    await attempt(signIns, { source, ...owner }, true);
    for (let i = 0; i < SIGN_IN_LIMITS.perSourceAccount; i++) expect((await fails(signIns, source)).admitted).toBe(true);
    const failedSoFar = 2 * SIGN_IN_LIMITS.perSourceAccount - 1;
    for (let i = failedSoFar; i < SIGN_IN_LIMITS.perSource; i++) expect((await fails(signIns, source, `b${i}@example.test`)).admitted).toBe(true);
    expect((await fails(signIns, source, 'fresh@example.test')).admitted).toBe(false);
  });

  it('lets strangers failing from many sources neither refuse the owner a first try nor touch the known device', async () => {
    const signIns = limiter();
    const free = SIGN_IN_LIMITS.freeAccountFailures;
    for (let i = 0; i < free + 2; i++) expect((await fails(signIns, `203.0.113.${i}`)).admitted).toBe(true);
    expect((await signIns.admit({ source: '192.0.2.1', ...owner })).admitted).toBe(true);
    // At a source that is being slowed, the owner's known device is still let through.
    const slowedSource = `203.0.113.${free + 1}`;
    expect((await signIns.admit({ source: slowedSource, ...owner })).admitted).toBe(false);
    expect((await signIns.admit({ source: slowedSource, email: owner.email, device: 'owners-laptop' })).admitted).toBe(true);
  });

  it('slows each source trying an account under attack, by a wait that grows and stops at the maximum', async () => {
    const signIns = limiter(3);
    const free = SIGN_IN_LIMITS.freeAccountFailures;
    for (let i = 0; i < free; i++) await fails(signIns, `203.0.113.${i}`);
    // The 11th, 12th and 13th failures of the account: each source then waits 1, 2, then 3 (the cap) seconds.
    const waits = [];
    for (const source of ['192.0.2.11', '192.0.2.12', '192.0.2.13']) {
      await fails(signIns, source);
      const slowed = await fails(signIns, source);
      waits.push(slowed.admitted ? 0 : Math.ceil(slowed.retryAfterMs / 1000));
    }
    expect(waits).toEqual([1, 2, 3]);
    // A source whose failure came before the account was attacked is not held back.
    expect((await fails(signIns, '203.0.113.0')).admitted).toBe(true);
  });

  it('ends a slowdown when its wait has passed', async () => {
    const signIns = limiter(1);
    for (let i = 0; i <= SIGN_IN_LIMITS.freeAccountFailures; i++) await fails(signIns, `203.0.113.${i}`);
    const slowedSource = `203.0.113.${SIGN_IN_LIMITS.freeAccountFailures}`;
    expect((await signIns.admit({ source: slowedSource, ...owner })).admitted).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await signIns.admit({ source: slowedSource, ...owner })).admitted).toBe(true);
  });

  it('gives a known device its own budget, spent only by its own failures', async () => {
    const signIns = limiter();
    const laptop = { source: '198.51.100.4', email: owner.email, device: 'owners-laptop' };
    for (let i = 0; i < SIGN_IN_LIMITS.perDevice; i++) expect((await attempt(signIns, laptop)).admitted).toBe(true);
    expect((await signIns.admit(laptop)).admitted).toBe(false);
    // Its failures count against neither the source nor the account.
    expect((await fails(signIns, laptop.source)).admitted).toBe(true);
    expect((await signIns.admit({ ...laptop, device: 'owners-phone' })).admitted).toBe(true);
  });
});

describe('KnownDevices', () => {
  /** The device cookie an answer sets (name=value). */
  const remembered = (devices: KnownDevices, email: string, id: string | null) => {
    let cookie = '';
    const res = {
      cookie: (name: string, value: string) => {
        cookie = `${name}=${value}`;
      },
    } as unknown as Response;
    devices.remember(res, email, id);
    return { cookie };
  };

  it('recognizes the cookie it set, for that address only, and keeps the id it was given', () => {
    const devices = new KnownDevices('a-secret-of-sixteen-chars', false);
    const { cookie } = remembered(devices, 'owner@example.test', null);
    const id = devices.recognize(`rsid=x; ${cookie}`, 'owner@example.test');
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(devices.recognize(cookie, 'other@example.test')).toBeNull();
    expect(devices.recognize(remembered(devices, 'owner@example.test', id).cookie, 'owner@example.test')).toBe(id);
  });

  it('recognizes no cookie forged, altered or signed with another secret', () => {
    const devices = new KnownDevices('a-secret-of-sixteen-chars', false);
    const { cookie } = remembered(devices, 'owner@example.test', 'device-1');
    const [name, value] = cookie.split('=') as [string, string];
    const [id, mac] = value.split('.') as [string, string];
    expect(devices.recognize(`${name}=device-2.${mac}`, 'owner@example.test')).toBeNull();
    expect(devices.recognize(`${name}=${id}.${mac.slice(1)}`, 'owner@example.test')).toBeNull();
    expect(devices.recognize(`${name}=${id}`, 'owner@example.test')).toBeNull();
    expect(new KnownDevices('another-secret-of-16', false).recognize(cookie, 'owner@example.test')).toBeNull();
  });
});
