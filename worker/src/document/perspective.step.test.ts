import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { originalPoint, type PageImage } from '../page/page.types.js';
import { homography, MIN_DEVIATION, project, rectangleDeviation, straightenReceipt, type Quad } from './perspective.step.js';
import { syntheticPhoto, TILTED_BARS, tiltedPhoto } from './prepare-page.fixture.js';
import { readGray, regions } from './prepare-page.raster.js';
import { cropToReceipt } from './receipt-crop.step.js';

const signal = new AbortController().signal;
const unitSquare: Quad = [[0, 0], [1, 0], [1, 1], [0, 1]];

/** A receipt lying on a table, photographed from its bottom end: the top is narrower and shorter. */
const TRAPEZOID: Quad = [[430, 260], [790, 280], [990, 1390], [210, 1350]];

async function photoOf(corners: Quad): Promise<PageImage> {
  const toFrame = homography(unitSquare, corners);
  return tiltedPhoto(corners, (u, v) => project(toFrame, u, v));
}

/** The dark bars of a page: their bounding boxes, larger than specks and off the edges (the table in the margin), top to bottom. */
async function bars(page: PageImage) {
  const gray = await readGray(page);
  return regions(gray.width, gray.height, (i) => gray.data[i]! < 100)
    .filter((r) => r.area > 0.002 * gray.width * gray.height && r.box.left > 0 && r.box.top > 0)
    .filter((r) => r.box.left + r.box.width < gray.width && r.box.top + r.box.height < gray.height)
    .map((r) => r.box)
    .sort((a, b) => a.top - b.top);
}

describe('homography', () => {
  it('takes each of four points to its pair', () => {
    const m = homography(unitSquare, TRAPEZOID);
    for (let c = 0; c < 4; c++) {
      const [x, y] = project(m, ...unitSquare[c]!);
      expect(x).toBeCloseTo(TRAPEZOID[c]![0], 6);
      expect(y).toBeCloseTo(TRAPEZOID[c]![1], 6);
    }
  });
});

describe('rectangleDeviation', () => {
  it('is 0 for a rectangle however it is turned, and grows as the sides converge', () => {
    const t = (12 * Math.PI) / 180;
    const turned = unitSquare.map(([x, y]) => [300 * x * Math.cos(t) - 900 * y * Math.sin(t), 300 * x * Math.sin(t) + 900 * y * Math.cos(t)]) as Quad;
    expect(rectangleDeviation(turned)).toBeLessThan(1e-9);
    expect(rectangleDeviation(TRAPEZOID)).toBeGreaterThan(MIN_DEVIATION);
  });
});

describe('straightenReceipt', () => {
  it('finds the corners of a receipt photographed at an angle and warps it upright', async () => {
    const photo = await photoOf(TRAPEZOID);
    const { page, warped, corners } = await straightenReceipt(photo, { signal });
    expect(warped).toBe(true);
    // Found on a 512-px copy (3.1 frame pixels to one): within 1 % of the frame.
    for (let c = 0; c < 4; c++) {
      expect(Math.abs(corners![c]![0] - TRAPEZOID[c]![0])).toBeLessThan(0.01 * photo.height);
      expect(Math.abs(corners![c]![1] - TRAPEZOID[c]![1])).toBeLessThan(0.01 * photo.height);
    }
    // The bars, drawn converging, come out horizontal, one under the other, equally long and evenly spaced.
    const found = await bars(page);
    expect(found).toHaveLength(TILTED_BARS.length);
    const paperHeight = page.height / 1.06;
    for (const box of found) expect(box.height).toBeLessThan(0.03 * paperHeight + 0.006 * page.height);
    const lefts = found.map((b) => b.left);
    const rights = found.map((b) => b.left + b.width);
    expect(Math.max(...lefts) - Math.min(...lefts)).toBeLessThan(0.02 * page.width);
    expect(Math.max(...rights) - Math.min(...rights)).toBeLessThan(0.02 * page.width);
    const gaps = found.slice(1).map((b, i) => b.top - found[i]!.top);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThan(0.02 * page.height);
    // Without the warp the bars' ends lie on the converging sides: they differ by far more.
    const cropped = await bars((await cropToReceipt(photo)).page);
    expect(Math.max(...cropped.map((b) => b.left)) - Math.min(...cropped.map((b) => b.left))).toBeGreaterThan(0.1 * page.width);
  });

  it('leads each pixel of the straightened page back to where it was photographed', async () => {
    const photo = await photoOf(TRAPEZOID);
    const { page, corners } = await straightenReceipt(photo, { signal });
    // The paper's corners sit the margin in from the page's corners.
    const mx = (page.width * 0.03) / 1.06;
    const my = (page.height * 0.03) / 1.06;
    const inner: Quad = [[mx, my], [page.width - mx, my], [page.width - mx, page.height - my], [mx, page.height - my]];
    for (let c = 0; c < 4; c++) {
      const [x, y] = originalPoint(page, ...inner[c]!);
      expect(x).toBeCloseTo(corners![c]![0] / photo.width, 2);
      expect(y).toBeCloseTo(corners![c]![1] / photo.height, 2);
    }
    // And a bar's middle, through the projection the photo was drawn with.
    const bar = (await bars(page))[3]!;
    const [top, height] = TILTED_BARS[3]!;
    const [ox, oy] = originalPoint(page, bar.left + bar.width / 2, bar.top + bar.height / 2);
    const [ex, ey] = project(homography(unitSquare, TRAPEZOID), 0.5, top + height / 2);
    expect(Math.abs(ox * photo.width - ex)).toBeLessThan(0.01 * photo.width);
    expect(Math.abs(oy * photo.height - ey)).toBeLessThan(0.01 * photo.height);
  });

  it('only crops a receipt that lies square, even turned a little', async () => {
    const flat = await syntheticPhoto();
    const straight = await straightenReceipt(flat, { signal });
    expect(straight).toMatchObject({ cropped: true, warped: false });
    expect(straight.page.image.equals((await cropToReceipt(flat)).page.image)).toBe(true);
    const t = (8 * Math.PI) / 180;
    const turned = unitSquare.map(([u, v]) => [450 + 420 * u * Math.cos(t) - 1100 * v * Math.sin(t), 200 + 420 * u * Math.sin(t) + 1100 * v * Math.cos(t)]) as Quad;
    expect(await straightenReceipt(await photoOf(turned), { signal })).toMatchObject({ cropped: true, warped: false });
  });

  it('leaves a page with no distinct receipt as it was', async () => {
    const flat = await syntheticPhoto();
    const { data, info } = await sharp(flat.image).extract(flat.paper).png().toBuffer({ resolveWithObject: true });
    const page = { image: data, width: info.width, height: info.height };
    expect(await straightenReceipt(page, { signal })).toEqual({ page, cropped: false, warped: false });
  });

  it('stops when the job is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('aborted'));
    await expect(straightenReceipt(await photoOf(TRAPEZOID), { signal: controller.signal })).rejects.toThrow('aborted');
  });
});
