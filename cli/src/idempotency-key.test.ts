import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uploadIdempotencyKey } from './idempotency-key.js';

describe('uploadIdempotencyKey', () => {
  it("is the file's SHA-256", () => {
    // SHA-256 of "abc" (FIPS 180-2's first example).
    expect(uploadIdempotencyKey(Buffer.from('abc'))).toBe('receipts-cli-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is the same for the same bytes, read again, and differs for any other file', () => {
    const bytes = randomBytes(4096);
    expect(uploadIdempotencyKey(Buffer.from(bytes))).toBe(uploadIdempotencyKey(bytes));
    const changed = Buffer.from(bytes);
    changed[4095] = changed[4095]! ^ 1;
    expect(uploadIdempotencyKey(changed)).not.toBe(uploadIdempotencyKey(bytes));
  });

  it('differs when the same file is asked with another currency, whatever its case', () => {
    const bytes = randomBytes(64);
    expect(uploadIdempotencyKey(bytes, { currency: 'EUR' })).not.toBe(uploadIdempotencyKey(bytes));
    expect(uploadIdempotencyKey(bytes, { currency: 'eur' })).toBe(uploadIdempotencyKey(bytes, { currency: 'EUR' }));
    expect(uploadIdempotencyKey(bytes, { currency: 'GBP' })).not.toBe(uploadIdempotencyKey(bytes, { currency: 'EUR' }));
  });

  it('stays within what an Idempotency-Key header carries: printable ASCII, short', () => {
    const key = uploadIdempotencyKey(randomBytes(10), { currency: 'usd' });
    expect(key).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});
