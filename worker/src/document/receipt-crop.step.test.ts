import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { worldDir } from '../../../tests/support/receipts-world.js';
import { originalPoint } from '../page/page.types.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { readGray } from './prepare-page.raster.js';
import { cropToReceipt, findReceipt } from './receipt-crop.step.js';
import { sharedFileThere } from '../../../tests/support/shared-sets.js';

describe('cropToReceipt', () => {
  it('finds a receipt on a textured background and crops to it', async () => {
    const photo = await syntheticPhoto();
    const box = await findReceipt(photo);
    const { paper } = photo;
    // The paper plus a margin of a few per cent, nothing more.
    expect(box!.left).toBeLessThanOrEqual(paper.left);
    expect(box!.top).toBeLessThanOrEqual(paper.top);
    expect(box!.left + box!.width).toBeGreaterThanOrEqual(paper.left + paper.width);
    expect(box!.top + box!.height).toBeGreaterThanOrEqual(paper.top + paper.height);
    expect(box!.width * box!.height).toBeLessThan(1.25 * paper.width * paper.height);
    const { page, cropped } = await cropToReceipt(photo);
    expect(cropped).toBe(true);
    expect(originalPoint(page, 0, 0)).toEqual([box!.left / photo.width, box!.top / photo.height]);
  });

  it('leaves a page the paper fills as it is', async () => {
    const photo = await syntheticPhoto();
    const { data, info } = await sharp(photo.image).extract(photo.paper).png().toBuffer({ resolveWithObject: true });
    expect(await findReceipt({ image: data, width: info.width, height: info.height })).toBeUndefined();
  });
});

const aldi = path.join(worldDir, 'us_aldi_1.jpg');
describe.skipIf(!sharedFileThere(aldi, 'cropping a real phone photo'))('cropToReceipt on a phone photo', () => {
  it('crops a long receipt on a dark table to the receipt, print and all', async () => {
    // Decoding applies the EXIF orientation; so does this.
    const { data, info } = await sharp(aldi).rotate().resize(2000, 2000, { fit: 'inside' }).png().toBuffer({ resolveWithObject: true });
    const frame = { image: data, width: info.width, height: info.height };
    const box = (await findReceipt(frame))!;
    expect(box.width * box.height).toBeLessThan(0.6 * frame.width * frame.height);
    // Everything the crop leaves out is background: no print (dark detail on paper) outside the box.
    const gray = await readGray(frame);
    let paperOutside = 0;
    for (let y = 0; y < gray.height; y++) {
      for (let x = 0; x < gray.width; x++) {
        const inside = x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
        if (!inside && gray.data[y * gray.width + x]! > 170) paperOutside++;
      }
    }
    expect(paperOutside).toBeLessThan(0.01 * gray.width * gray.height);
  });
});
