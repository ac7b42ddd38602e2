import { describe, expect, it } from 'vitest';
import { settleWithin } from './deadline.js';

const never = new Promise<never>(() => undefined);
const late = () => new Error('late');

describe('settleWithin', () => {
  it('settles as the work does when it is in time', async () => {
    await expect(settleWithin(Promise.resolve(7), 1000, late)).resolves.toBe(7);
    await expect(settleWithin(Promise.reject(new Error('broke')), 1000, late)).rejects.toThrow('broke');
  });

  it("rejects with late()'s error when the work never settles", async () => {
    const started = Date.now();
    await expect(settleWithin(never, 30, late)).rejects.toThrow('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("rejects with the signal's reason when it fires first, or fired before", async () => {
    const controller = new AbortController();
    const waiting = settleWithin(never, 60_000, late, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await expect(settleWithin(Promise.resolve(1), 60_000, late, controller.signal)).rejects.toThrow('cancelled');
  });
});
