import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uploadIdempotencyKey } from './idempotency-key.js';

describe('uploadIdempotencyKey', () => {
  it("carries the file's SHA-256", () => {
    // SHA-256 of "abc" (FIPS 180-2's first example).
    expect(uploadIdempotencyKey(Buffer.from('abc'), { name: 'a.jpg' })).toMatch(/^receipts-cli-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad-[0-9a-f]{16}$/);
    const bytes = randomBytes(100);
    expect(uploadIdempotencyKey(bytes, { name: 'a.jpg' })).toContain(createHash('sha256').update(bytes).digest('hex'));
  });

  it('is the same for the same bytes, read again, and differs for any other file', () => {
    const bytes = randomBytes(4096);
    expect(uploadIdempotencyKey(Buffer.from(bytes), { name: 'r.png' })).toBe(uploadIdempotencyKey(bytes, { name: 'r.png' }));
    const changed = Buffer.from(bytes);
    changed[4095] = changed[4095]! ^ 1;
    expect(uploadIdempotencyKey(changed, { name: 'r.png' })).not.toBe(uploadIdempotencyKey(bytes, { name: 'r.png' }));
  });

  it('differs when the same file is sent under another name or with another currency (whatever its case)', () => {
    const bytes = randomBytes(64);
    const plain = uploadIdempotencyKey(bytes, { name: 'a.jpg' });
    expect(uploadIdempotencyKey(bytes, { name: 'copy of a.jpg' })).not.toBe(plain);
    expect(uploadIdempotencyKey(bytes, { name: 'a.jpg', currency: 'EUR' })).not.toBe(plain);
    expect(uploadIdempotencyKey(bytes, { name: 'a.jpg', currency: 'eur' })).toBe(uploadIdempotencyKey(bytes, { name: 'a.jpg', currency: 'EUR' }));
    expect(uploadIdempotencyKey(bytes, { name: 'a.jpg', currency: 'GBP' })).not.toBe(uploadIdempotencyKey(bytes, { name: 'a.jpg', currency: 'EUR' }));
  });

  it('is what the api takes as a key: 1 to 255 printable ASCII characters, whatever the name', () => {
    expect(uploadIdempotencyKey(randomBytes(10), { name: 'Quittung März ☕.jpg', currency: 'usd' })).toMatch(/^[\x20-\x7e]{1,255}$/);
  });
});
