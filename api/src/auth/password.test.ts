import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('verifies the right password and rejects others', async () => {
    const hash = await hashPassword('Secret123');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('Secret123', hash)).toBe(true);
    expect(await verifyPassword('secret123', hash)).toBe(false);
    expect(await verifyPassword('Secret123', 'bcrypt$whatever')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('Same1pass')).not.toBe(await hashPassword('Same1pass'));
  });
});
