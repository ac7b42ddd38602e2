import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { originalPoint } from '../page/page.types.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { readGray } from './prepare-page.raster.js';
import { medianTextHeight, scaleText, TARGET_TEXT_HEIGHT } from './text-scale.step.js';

async function receipt(fontSize: number) {
  const photo = await syntheticPhoto({ fontSize, width: fontSize * 40, height: fontSize * 60 });
  const { data, info } = await sharp(photo.image).extract(photo.paper).png().toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height };
}

describe('scaleText', () => {
  it('measures character height in proportion to the font size', async () => {
    const small = medianTextHeight(await readGray(await receipt(16)))!;
    const large = medianTextHeight(await readGray(await receipt(40)))!;
    expect(large / small).toBeCloseTo(40 / 16, 0);
  });

  it('enlarges small print to the size tesseract reads best, and maps back to the input', async () => {
    const page = await receipt(12);
    const { page: scaled, scale } = await scaleText(page);
    expect(scale).toBeGreaterThan(1.3);
    const height = medianTextHeight(await readGray(scaled))!;
    expect(Math.abs(height - TARGET_TEXT_HEIGHT)).toBeLessThan(0.25 * TARGET_TEXT_HEIGHT);
    expect(originalPoint(scaled, scaled.width, scaled.height)).toEqual([1, 1]);
  });

  it('leaves print of about the right size alone', async () => {
    // Capitals and digits stand about 0.6 of the font size high here.
    const page = await receipt(Math.round(TARGET_TEXT_HEIGHT / 0.6));
    expect((await scaleText(page)).scale).toBe(1);
  });
});
