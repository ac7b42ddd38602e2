import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { originalPoint, type PageImage } from '../page/page.types.js';
import { closeOrientationDetector } from '../tesseract/orientation.detector.js';
import { printedReceipt } from '../../../tests/support/printed-receipt.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { preparePage } from './prepare-page.js';

const signal = new AbortController().signal;
afterAll(closeOrientationDetector);

describe('preparePage', () => {
  it('crops and turns a sideways photo, and maps the prepared corners back onto the paper in the original', async () => {
    const photo = await syntheticPhoto();
    // Stored 90° clockwise (a phone held sideways, no EXIF): a (x, y) of the upright photo lies at (H − y, x).
    const { data, info } = await sharp(photo.image).rotate(90).png().toBuffer({ resolveWithObject: true });
    const original: PageImage = { image: data, width: info.width, height: info.height };
    const prepared = await preparePage(original, { signal });
    expect(prepared).toMatchObject({ rotated: 270, cropped: true, skew: 0 });
    const { left, top, width, height } = photo.paper;
    const stored = (x: number, y: number) => [(photo.height - y) / info.width, x / info.height];
    const corners = [
      [originalPoint(prepared.page, 0, 0), stored(left, top)],
      [originalPoint(prepared.page, prepared.page.width, prepared.page.height), stored(left + width, top + height)],
      [originalPoint(prepared.page, prepared.page.width, 0), stored(left + width, top)],
    ];
    // The crop keeps a margin of 3 % of the paper around it.
    for (const [got, want] of corners) {
      expect(got![0]).toBeCloseTo(want![0]!, 1);
      expect(got![1]).toBeCloseTo(want![1]!, 1);
    }
    expect(Math.abs(prepared.page.width / prepared.page.height - width / height)).toBeLessThan(0.1);
  });

  it('hands OCR a page of one channel, not three identical ones (tesseract.js would convert it in WebAssembly)', async () => {
    // A colour scan, evenly lit: the decoder's pages are colour PNGs.
    const { data, info } = await sharp(await printedReceipt()).flatten({ background: '#ffffff' }).toColourspace('srgb').png().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const prepared = await preparePage({ image: data, width: info.width, height: info.height }, { signal, orient: 'never' });
    await expect(sharp(prepared.page.image).metadata()).resolves.toMatchObject({ format: 'png', channels: 1 });
  });

  it('leaves an upright flat page uncropped and unturned', async () => {
    const photo = await syntheticPhoto();
    const { data, info } = await sharp(photo.image).extract(photo.paper).png().toBuffer({ resolveWithObject: true });
    const prepared = await preparePage({ image: data, width: info.width, height: info.height }, { signal });
    expect(prepared).toMatchObject({ rotated: 0, cropped: false, skew: 0 });
    expect(originalPoint(prepared.page, 0, 0)).toEqual([0, 0]);
  });

  it('keeps the whole frame when asked not to crop (to read again where a crop may have cut the receipt)', async () => {
    const photo = await syntheticPhoto();
    const prepared = await preparePage({ image: photo.image, width: photo.width, height: photo.height }, { signal, orient: 'never', crop: false });
    expect(prepared).toMatchObject({ cropped: false, rotated: 0 });
    expect([prepared.page.width, prepared.page.height]).toEqual([photo.width, photo.height]);
    expect(originalPoint(prepared.page, prepared.page.width, prepared.page.height)).toEqual([1, 1]);
  });

  it('does not turn a short, wide receipt over before reading it (OSD guessed a half turn on it)', async () => {
    const lines = ['MAJU JAYA HARDWARE TRADING', 'NO 8 JALAN BESAR, KLANG', 'DATE 21/09/2017 10:20', 'STEEL NAIL RM 5.00', 'WIRE MESH RM 5.40', 'TOTAL RM 10.40'];
    const image = await printedReceipt(lines, { format: 'jpeg' });
    const { width, height } = await sharp(image).metadata();
    expect(width!).toBeGreaterThan(height!);
    const prepared = await preparePage({ image, width: width!, height: height! }, { signal, orient: 'landscape' });
    expect(prepared.rotated).toBe(0);
  });
});
