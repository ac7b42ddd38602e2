import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pagePicture, PICTURE_LONG_SIDE } from './page-picture.js';

const page = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#f4f1ea' } }).png().toBuffer();

describe('pagePicture', () => {
  it('is a JPEG of the page shrunk to the picture size, its shape kept', async () => {
    const meta = await sharp(await pagePicture(await page(3000, 1200))).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([PICTURE_LONG_SIDE, 960]);
  });

  it('keeps a page smaller than the picture size at its own size', async () => {
    const meta = await sharp(await pagePicture(await page(800, 1900))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 1900]);
  });
});
