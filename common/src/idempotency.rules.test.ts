import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_CLAIM_STALE_MS, IDEMPOTENCY_KEY_TTL_MS, idempotencyKeySchema, idempotentOutcome, type IdempotentOutcome } from './idempotency.rules.js';

describe('idempotentOutcome', () => {
  const now = new Date('2030-01-02T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const MINUTE = 60_000;

  it.each<[string, { fingerprint: string; answered: boolean; createdAt: Date }, IdempotentOutcome]>([
    ['the same request, answered', { fingerprint: 'a', answered: true, createdAt: ago(MINUTE) }, 'replay'],
    ['the same request, answered nearly a day ago', { fingerprint: 'a', answered: true, createdAt: ago(IDEMPOTENCY_KEY_TTL_MS - 1) }, 'replay'],
    ['another request, answered', { fingerprint: 'b', answered: true, createdAt: ago(MINUTE) }, 'reused'],
    ['another request, still being answered', { fingerprint: 'b', answered: false, createdAt: ago(0) }, 'reused'],
    ['the same request, still being answered', { fingerprint: 'a', answered: false, createdAt: ago(0) }, 'in-flight'],
    ['the same request, being answered for nearly the stale time', { fingerprint: 'a', answered: false, createdAt: ago(IDEMPOTENCY_CLAIM_STALE_MS - 1) }, 'in-flight'],
    ['the same request, unanswered past the stale time', { fingerprint: 'a', answered: false, createdAt: ago(IDEMPOTENCY_CLAIM_STALE_MS) }, 'expired'],
    ['the same request, answered a day ago', { fingerprint: 'a', answered: true, createdAt: ago(IDEMPOTENCY_KEY_TTL_MS) }, 'expired'],
    ['another request, answered a day ago', { fingerprint: 'b', answered: true, createdAt: ago(IDEMPOTENCY_KEY_TTL_MS + 1) }, 'expired'],
  ])('%s', (_case, stored, outcome) => {
    expect(idempotentOutcome(stored, 'a', now)).toBe(outcome);
  });
});

describe('idempotencyKeySchema', () => {
  it.each([
    ['a uuid', '5f0c7c1e-7a47-4a8e-9b1f-0d6f3a0f4a11', true],
    ['one character', 'k', true],
    ['255 characters', 'k'.repeat(255), true],
    ['spaces and punctuation', 'upload #1: receipt.png', true],
    ['nothing', '', false],
    ['256 characters', 'k'.repeat(256), false],
    ['a letter outside ASCII', 'clé', false],
    ['a control character', 'a\tb', false],
  ])('%s: %s', (_case, key, valid) => {
    expect(idempotencyKeySchema.safeParse(key).success).toBe(valid);
  });
});
