import { describe, expect, it } from 'vitest';
import type { PaddleOcr } from './paddle-ocr.engine.js';
import { createPaddlePool } from './paddle-ocr.pool.js';

/** A reader whose pages finish when the test says, recording which reader got each page. */
function fakeReaders() {
  const started: number[] = [];
  const pending: Array<() => void> = [];
  let closed = 0;
  const create = (): PaddleOcr => {
    const id = started.length;
    started.push(0);
    return {
      recognizePage: () =>
        new Promise((resolve) => {
          started[id]!++;
          pending.push(() => resolve({ lines: [], confidence: id }));
        }),
      close: async () => {
        closed++;
      },
    };
  };
  return { create, started, finishAll: () => pending.splice(0).forEach((f) => f()), closed: () => closed };
}

const signal = new AbortController().signal;
const page = Buffer.from('page');

describe('createPaddlePool', () => {
  it('gives pages read at once to readers of their own, up to its size', async () => {
    const fake = fakeReaders();
    const pool = createPaddlePool(2, fake.create);
    const reads = [pool.recognizePage(page, signal), pool.recognizePage(page, signal), pool.recognizePage(page, signal)];
    // Two readers for two slots; the third page waits behind one of them.
    expect(fake.started.length).toBe(2);
    expect(fake.started.reduce((a, b) => a + b, 0)).toBe(3);
    fake.finishAll();
    await Promise.all(reads);
  });

  it('reuses an idle reader rather than starting another', async () => {
    const fake = fakeReaders();
    const pool = createPaddlePool(4, fake.create);
    const first = pool.recognizePage(page, signal);
    fake.finishAll();
    await first;
    const second = pool.recognizePage(page, signal);
    fake.finishAll();
    await second;
    expect(fake.started).toEqual([2]);
  });

  it('closes every reader it started', async () => {
    const fake = fakeReaders();
    const pool = createPaddlePool(2, fake.create);
    const reads = [pool.recognizePage(page, signal), pool.recognizePage(page, signal)];
    fake.finishAll();
    await Promise.all(reads);
    await pool.close();
    expect(fake.closed()).toBe(2);
  });
});
