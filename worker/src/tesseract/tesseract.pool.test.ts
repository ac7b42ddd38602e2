import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { settleWithin, ThreadStartTimeoutError } from './deadline.js';
import { TesseractPool } from './tesseract.pool.js';
import { TesseractTimeoutError } from './tesseract.reader.js';

async function page(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="80"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="55" font-family="DejaVu Sans" font-size="36">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const pool = new TesseractPool(1, ['eng', 'deu']);
afterAll(() => pool.close());
const signal = () => new AbortController().signal;

describe('TesseractPool', () => {
  it('reads a line with its box', async () => {
    const { lines, confidence } = await pool.recognize(await page('TOTAL 12.34'), ['eng'], signal());
    expect(lines.map((l) => l.text)).toEqual(['TOTAL 12.34']);
    expect(lines[0]!.box.x).toBeGreaterThan(10);
    expect(lines[0]!.box.x + lines[0]!.box.width).toBeLessThan(600);
    expect(confidence).toBeGreaterThan(0.8);
  });

  it('reads at the set resolution after switching languages, as after its start', async () => {
    // A page made from raw pixels says 1 pixel/mm (25 dpi) in its header: read without
    // user_defined_dpi, tesseract warns on stderr and takes 70 dpi.
    const { data, info } = await sharp(await page('TOTAL 45.60')).raw().toBuffer({ resolveWithObject: true });
    const rawPage = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer();
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    try {
      for (const langs of [['eng'], ['deu'], ['eng']]) await pool.recognize(rawPage, langs, signal());
      // The thread's output reaches this process's stderr a moment after the page's result.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      write.mockRestore();
    }
    expect(written.filter((w) => /Invalid resolution/.test(w))).toEqual([]);
  });

  it('gives up on a page past its time, replaces the worker and reads the next page', async () => {
    await expect(pool.recognize(await page('SUMME 12,34'), ['deu'], signal(), 1)).rejects.toBeInstanceOf(TesseractTimeoutError);
    const { lines } = await pool.recognize(await page('SUMME 12,34'), ['deu'], signal());
    expect(lines.map((l) => l.text)).toEqual(['SUMME 12,34']);
  });

  it('rejects a cancelled page at once and keeps serving', async () => {
    const controller = new AbortController();
    const pending = pool.recognize(await page('CASH 20.00'), ['eng'], controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
    const { lines } = await pool.recognize(await page('CHANGE 7.66'), ['eng'], signal());
    expect(lines.map((l) => l.text)).toEqual(['CHANGE 7.66']);
  });

  it('keeps a worker whose start outlives its cancelled page: the next page is read by it, not by a new one', async () => {
    const started = vi.spyOn(Tesseract, 'createWorker');
    const fresh = new TesseractPool(1, ['eng', 'deu']);
    try {
      const image = await page('TOTAL 3.50');
      const controller = new AbortController();
      const cancelled = fresh.recognize(image, ['eng'], controller.signal);
      // Cancelled while its worker starts (a start takes hundreds of milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort(new Error('cancelled'));
      await expect(cancelled).rejects.toThrow('cancelled');
      const { lines } = await fresh.recognize(image, ['eng'], signal());
      expect(lines.map((l) => l.text)).toEqual(['TOTAL 3.50']);
      expect(started).toHaveBeenCalledTimes(1);

      // The same for a language load cancelled half-way: the worker reads the next page in German.
      const loading = new AbortController();
      const cancelledLoad = fresh.recognize(await page('SUMME 3,50'), ['deu'], loading.signal);
      await new Promise((resolve) => setTimeout(resolve, 20));
      loading.abort(new Error('cancelled'));
      await expect(cancelledLoad).rejects.toThrow('cancelled');
      const german = await fresh.recognize(await page('SUMME 3,50'), ['deu'], signal());
      expect(german.lines.map((l) => l.text)).toEqual(['SUMME 3,50']);
      expect(started).toHaveBeenCalledTimes(1);
    } finally {
      started.mockRestore();
      await fresh.close();
    }
  });

  it('lets a page cancelled while it waits for a worker go at once, and the page after it gets the worker', { timeout: 90_000 }, async () => {
    const one = new TesseractPool(1, ['eng']);
    try {
      const image = await page('TOTAL 4.20');
      const settled: string[] = [];
      const first = one.recognize(image, ['eng'], signal()).then(() => settled.push('first'));
      const controller = new AbortController();
      const cancelled = one.recognize(image, ['eng'], controller.signal).then(
        () => settled.push('cancelled page read'),
        () => settled.push('cancelled page rejected'),
      );
      const next = one.recognize(image, ['eng'], signal());
      controller.abort(new Error('cancelled'));
      const read = await settleWithin(next, 60_000, () => new Error('the page after the cancelled one never got the worker'));
      settled.push('next');
      expect(read.lines.map((l) => l.text)).toEqual(['TOTAL 4.20']);
      await Promise.all([first, cancelled]);
      expect(settled).toEqual(['cancelled page rejected', 'first', 'next']);
    } finally {
      await one.close();
    }
  });

  it('fails a page whose worker does not start in time, and hands the free place to the page waiting for one', async () => {
    // One place, a start no worker can make in 1 ms: the second page waits for the first's place.
    const slow = new TesseractPool(1, ['eng'], 1);
    try {
      const image = await page('TOTAL 1.00');
      const pages = await Promise.allSettled([slow.recognize(image, ['eng'], signal()), slow.recognize(image, ['eng'], signal())]);
      for (const result of pages) expect(result).toMatchObject({ status: 'rejected', reason: expect.any(ThreadStartTimeoutError) });
    } finally {
      await slow.close();
    }
  });
});
