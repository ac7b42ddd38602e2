import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readGray } from './prepare-page.raster.js';

/** A colour page: left half orange, right half pale blue. */
async function twoColourPage() {
  const width = 1200;
  const height = 600;
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(i % width < width / 2 ? [200, 100, 50] : [180, 200, 240], 3 * i);
  const image = await sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
  return { image, width, height };
}

describe('readGray', () => {
  it('shrinks a colour page to fit maxSide, one channel, at the levels of the full-size conversion', async () => {
    const page = await twoColourPage();
    const full = await readGray(page);
    const small = await readGray(page, 300);
    expect([small.width, small.height, small.data.length]).toEqual([300, 150, 300 * 150]);
    expect([full.width, full.height, full.data.length]).toEqual([1200, 600, 1200 * 600]);
    // Away from the edge between the halves the shrunk copy reads the same gray as the full page.
    for (const [x, fullX] of [[40, 160], [260, 1040]] as const) {
      expect(Math.abs(small.data[75 * 300 + x]! - full.data[300 * 1200 + fullX]!)).toBeLessThanOrEqual(1);
    }
    expect(full.data[300 * 1200 + 160]).not.toBe(full.data[300 * 1200 + 1040]);
  });
});
