import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.js';
import { readWith401Rules, urlOf } from './query-client.js';

const unauthorized = () => new ApiError(401, '{"error":"UNAUTHENTICATED","message":"Authentication required"}', 'Unauthorized');

describe('reads (spec §7)', () => {
  it('joins key segments with slashes', () => {
    expect(urlOf(['/api/user', 'quota'])).toBe('/api/user/quota');
  });

  it('retries a user read once after a 401 and returns what the retry gets', async () => {
    const read = vi.fn().mockRejectedValueOnce(unauthorized()).mockResolvedValueOnce({ used: 1 });
    await expect(readWith401Rules('/api/user/quota', read, { cached: undefined, nullOn401: false, delayMs: 1 })).resolves.toEqual({ used: 1 });
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('falls back to the cached value, else null, when the retry is still 401', async () => {
    const read = vi.fn().mockRejectedValue(unauthorized());
    await expect(readWith401Rules('/api/user/profile', read, { cached: { username: 'a' }, nullOn401: false, delayMs: 1 })).resolves.toEqual({ username: 'a' });
    await expect(readWith401Rules('/api/user/profile', read, { cached: undefined, nullOn401: false, delayMs: 1 })).resolves.toBeNull();
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('outside user reads, a 401 is null only when asked for', async () => {
    const read = vi.fn().mockRejectedValue(unauthorized());
    await expect(readWith401Rules('/api/billing', read, { cached: undefined, nullOn401: true })).resolves.toBeNull();
    await expect(readWith401Rules('/api/billing', read, { cached: undefined, nullOn401: false })).rejects.toThrow('401: ');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('passes other errors through untouched', async () => {
    const read = vi.fn().mockRejectedValue(new ApiError(500, 'boom', 'Internal'));
    await expect(readWith401Rules('/api/user/quota', read, { cached: undefined, nullOn401: true })).rejects.toThrow('500: boom');
    expect(read).toHaveBeenCalledTimes(1);
  });
});
