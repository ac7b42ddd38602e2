import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { knownPixels, pixelsOf, rememberPixels, sharpOf } from './page-pixels.js';

/** A page with print-like detail in colour, or its grayscale PNG. */
async function page(channels: 1 | 3): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="420"><rect width="100%" height="100%" fill="#f4efe2"/>
    <text x="20" y="60" font-family="DejaVu Sans" font-size="30" fill="#1a2a6c">TOTAL 12.34</text><rect x="40" y="200" width="90" height="120" fill="#c0392b"/></svg>`;
  const colour = sharp(Buffer.from(svg)).flatten({ background: '#ffffff' });
  return (channels === 1 ? colour.grayscale().toColourspace('b-w') : colour).png().toBuffer();
}

/** The pipelines the preparation steps, the page picture and OSD's probe run on a page. */
const pipelines: Array<[string, (s: Sharp) => Sharp]> = [
  ['as it is', (s) => s],
  ['grayscale', (s) => s.grayscale()],
  ['shrunk and blurred, colour (the crop)', (s) => s.resize({ width: 120, height: 120, fit: 'inside' }).blur(1.5).removeAlpha().toColourspace('srgb')],
  ['cut out and turned, grayscale', (s) => s.extract({ left: 10, top: 30, width: 200, height: 300 }).rotate(90).grayscale().toColourspace('b-w')],
];

describe('page pixels', () => {
  for (const channels of [1, 3] as const) {
    for (const [name, run] of pipelines) {
      it(`gives what decoding the PNG gives (${channels === 1 ? 'gray' : 'colour'} page, ${name})`, async () => {
        const png = await page(channels);
        const expected = await run(sharp(png)).raw().toBuffer({ resolveWithObject: true });
        const actual = await run(await sharpOf(png)).raw().toBuffer({ resolveWithObject: true });
        expect(actual.info.channels).toBe(expected.info.channels);
        expect([actual.info.width, actual.info.height]).toEqual([expected.info.width, expected.info.height]);
        expect(actual.data.equals(expected.data)).toBe(true);
      });
    }
  }

  it('keeps a gray page one band, a colour page three', async () => {
    expect((await pixelsOf(await page(1))).channels).toBe(1);
    expect((await pixelsOf(await page(3))).channels).toBe(3);
  });

  it('decodes an image once, however many steps read it', async () => {
    const png = await page(3);
    expect(knownPixels(png)).toBeUndefined();
    const first = pixelsOf(png);
    expect(pixelsOf(png)).toBe(first);
    expect(knownPixels(png)).toBe(first);
    expect(await first).toMatchObject({ width: 300, height: 420, channels: 3 });
  });

  it('takes remembered pixels without decoding (the bytes need not be an image)', async () => {
    const bytes = Buffer.from('not an image');
    const pixels = { data: new Uint8Array(4 * 2), width: 4, height: 2, channels: 1 as const };
    rememberPixels(bytes, pixels);
    expect(await pixelsOf(bytes)).toBe(pixels);
  });

  it('keeps a few pages: past its bound the pixels used longest ago go first', async () => {
    // 32 MB each: three fit the bound, a fourth does not.
    const pages = Array.from({ length: 4 }, (_, i) => ({ image: Buffer.from(`page ${i}`), pixels: { data: new Uint8Array(32 * 1024 * 1024), width: 8192, height: 4096, channels: 1 as const } }));
    for (const { image, pixels } of pages.slice(0, 3)) {
      rememberPixels(image, pixels);
      await pixelsOf(image);
    }
    // The first page is read again: now the second is the one used longest ago.
    await pixelsOf(pages[0]!.image);
    rememberPixels(pages[3]!.image, pages[3]!.pixels);
    await pixelsOf(pages[3]!.image);
    expect(pages.map(({ image }) => knownPixels(image) !== undefined)).toEqual([true, false, true, true]);
  });

  it('does not keep a failed decode: the next reader gets the error too', async () => {
    const bytes = Buffer.from('not an image either');
    await expect(pixelsOf(bytes)).rejects.toThrow();
    expect(knownPixels(bytes)).toBeUndefined();
    await expect(pixelsOf(bytes)).rejects.toThrow();
  });
});
