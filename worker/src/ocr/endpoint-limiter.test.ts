import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter, endpointLimiter } from './endpoint-limiter.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe('concurrency limiter', () => {
  it('runs at most its limit at once, the rest in order', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const signal = new AbortController().signal;
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }, signal),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    expect(limiter.queued).toBe(2);
    gates[1]!.open();
    await runs[1];
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limiter.queued).toBe(0);
  });

  it('lets a cancelled task leave the line without taking a slot', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const first = gate();
    const running = limiter.run(() => first.opened, new AbortController().signal);
    const cancel = new AbortController();
    const waiting = limiter.run(async () => 'never', cancel.signal);
    cancel.abort(new Error('cancelled by user'));
    await expect(waiting).rejects.toThrow('cancelled by user');
    expect(limiter.queued).toBe(0);
    first.open();
    await running;
    expect(await limiter.run(async () => 'next', new AbortController().signal)).toBe('next');
  });

  it('is one per endpoint in a process', () => {
    expect(endpointLimiter('http://a/v1', 2)).toBe(endpointLimiter('http://a/v1', 2));
    expect(endpointLimiter('http://a/v1', 2)).not.toBe(endpointLimiter('http://b/v1', 2));
  });
});
