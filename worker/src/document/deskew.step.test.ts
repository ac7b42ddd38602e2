import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { originalPoint } from '../page/page.types.js';
import { deskewPage, measureSkew } from './deskew.step.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { readGray } from './prepare-page.raster.js';

const signal = new AbortController().signal;

/** The made-up receipt alone, turned `degrees` clockwise on white. */
async function tilted(degrees: number) {
  const photo = await syntheticPhoto();
  const { data, info } = await sharp(photo.image)
    .extract(photo.paper)
    .rotate(degrees, { background: '#ffffff' })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height };
}

describe('deskew', () => {
  it.each([-7, -3, 0, 4, 12])('measures lines tilted %i° clockwise', async (degrees) => {
    expect(measureSkew(await readGray(await tilted(degrees), 1000))).toBeCloseTo(degrees, 0);
  });

  it('straightens a tilted page and maps its centre back to the centre of the input', async () => {
    const page = await tilted(6);
    const { page: straight, skew } = await deskewPage(page, { signal });
    expect(skew).toBeCloseTo(6, 0);
    expect(Math.abs(measureSkew(await readGray(straight, 1000)))).toBeLessThan(0.5);
    const [x, y] = originalPoint(straight, straight.width / 2, straight.height / 2);
    expect(x).toBeCloseTo(0.5, 2);
    expect(y).toBeCloseTo(0.5, 2);
  });
});
