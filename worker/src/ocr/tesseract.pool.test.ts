import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ThreadStartTimeoutError } from './deadline.js';
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
