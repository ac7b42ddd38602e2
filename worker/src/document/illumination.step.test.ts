import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { evenIllumination } from './illumination.step.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { readGray } from './prepare-page.raster.js';

/** Paper brightness (the 90th percentile) in the left and right thirds of a page. */
async function sides(page: { image: Buffer; width: number; height: number }): Promise<[number, number]> {
  const gray = await readGray(page);
  const level = (x0: number, x1: number) => {
    const values: number[] = [];
    for (let y = 0; y < gray.height; y++) for (let x = x0; x < x1; x++) values.push(gray.data[y * gray.width + x]!);
    return values.sort((a, b) => a - b)[Math.floor(0.9 * values.length)]!;
  };
  return [level(0, Math.floor(gray.width / 3)), level(Math.floor((2 * gray.width) / 3), gray.width)];
}

describe('evenIllumination', () => {
  it('lifts a shadow across the paper to the level of the lit side', async () => {
    const photo = await syntheticPhoto();
    const receipt = await sharp(photo.image).extract(photo.paper).raw().toBuffer({ resolveWithObject: true });
    // A shadow darkening the paper from right to left down to 45 %.
    const { width, height } = receipt.info;
    const shaded = Buffer.from(receipt.data.map((v, i) => v * (0.45 + (0.55 * (i % width)) / width)));
    const image = await sharp(shaded, { raw: { width, height, channels: 1 } }).png().toBuffer();
    const page = { image, width, height };
    const [dark, lit] = await sides(page);
    expect(lit - dark).toBeGreaterThan(80);
    const { page: even, evened } = await evenIllumination(page);
    expect(evened).toBe(true);
    const [left, right] = await sides(even);
    expect(Math.abs(right - left)).toBeLessThan(15);
  });

  it('leaves evenly lit paper as it is', async () => {
    const photo = await syntheticPhoto();
    const { data, info } = await sharp(photo.image).extract(photo.paper).png().toBuffer({ resolveWithObject: true });
    expect((await evenIllumination({ image: data, width: info.width, height: info.height })).evened).toBe(false);
  });
});
