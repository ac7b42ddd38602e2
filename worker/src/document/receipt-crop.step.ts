import sharp from 'sharp';
import type { PageImage } from '../page/page.types.js';
import { sharpOf } from '../page/page-pixels.js';
import { otsuThreshold, regions, sharpPage, throughInput, type Box } from './prepare-page.raster.js';

/** The paper is looked for on a copy this size (long side): a receipt is a large bright shape. */
const FIND_SIDE = 512;
/** Paper is nearly colourless; a bright table, wall or hand is not (max − min over max, 0..1). */
const MAX_PAPER_SATURATION = 0.25;
/** Closing radius (blur σ at the finding size): wider than a line of print, narrower than the margin between receipt and frame. */
const CLOSE_SIGMA = 3;
/** A region at least this share of the largest is another piece of the same receipt. */
const PIECE_SHARE = 0.2;
/** Paper-bright pixels outside the box, as a share of those inside, above which the box is not the whole receipt. */
const MAX_BRIGHT_OUTSIDE = 0.25;
/** A crop must remove at least this much of the frame to be worth it; flat scans, where the paper fills the frame, stay whole. */
const MAX_CROP_SHARE = 0.8;
/** A shape smaller than this share of the frame is a label or a reflection, not the receipt. */
const MIN_PAPER_SHARE = 0.04;
/** The paper must fill this much of its box: a receipt is a (possibly tilted or curled) rectangle. */
const MIN_FILL = 0.45;
/** Margin kept around the paper, as a share of its box: the edge of the print sits close to the edge of the paper. */
const MARGIN = 0.03;

/** The receipt found in a photo: where to crop, and the paper's pixels on the small copy it was found on. */
export interface Paper {
  /** The paper's bounding box plus a margin, in the page's pixels. */
  box: Box;
  /** 1 where the receipt is (paper and the print on it), on a `width` × `height` copy of the page. */
  mask: Uint8Array;
  width: number;
  height: number;
}

/**
 * The receipt in a photo: the largest bright, colourless region, or undefined when there is none
 * distinct from the frame (a flat scan, a screenshot).
 */
export async function findPaper(page: PageImage): Promise<Paper | undefined> {
  const { data, info } = await (await sharpOf(page.image))
    .resize({ width: FIND_SIDE, height: FIND_SIDE, fit: 'inside', withoutEnlargement: true })
    // The blur averages a textured background (wood, fabric, steel) to its mean; paper stays bright.
    .blur(1.5)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const n = width * height;
  const luminance = new Uint8Array(n);
  const colourless = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = data[3 * i]!;
    const g = data[3 * i + 1]!;
    const b = data[3 * i + 2]!;
    const max = Math.max(r, g, b);
    luminance[i] = (r * 299 + g * 587 + b * 114) / 1000;
    colourless[i] = max === 0 || (max - Math.min(r, g, b)) / max <= MAX_PAPER_SATURATION ? 1 : 0;
  }
  // Paper is the brightest class: Otsu's split of what lies above the first split, which separates
  // the paper from a bright table or wall as well as the dark ones.
  const dark = otsuThreshold(luminance);
  // A plain loop: a typed array's filter() took half of this function's time.
  const aboveDark = new Uint8Array(n);
  let bright = 0;
  for (let i = 0; i < n; i++) if (luminance[i]! > dark) aboveDark[bright++] = luminance[i]!;
  const level = (dark + otsuThreshold(aboveDark.subarray(0, bright))) / 2;
  const paper = new Uint8Array(n);
  for (let i = 0; i < n; i++) paper[i] = luminance[i]! > level && colourless[i] ? 255 : 0;
  // Closing (grow, then shrink back) bridges the lines of print, which at this size are dark bars
  // that can reach the paper's edge and would let the background in between them.
  const closed = await blurLevel(await blurLevel(paper, width, height, CLOSE_SIGMA, 8), width, height, CLOSE_SIGMA, 247);
  // The background is what is not paper and reaches the frame's edge; the print inside the paper
  // does not, so the receipt is everything else, text included.
  const receipt = new Uint8Array(n).fill(255);
  for (const i of borderConnected(closed, width, height)) receipt[i] = 0;
  const labels = new Int32Array(n);
  const found = regions(width, height, (i) => receipt[i]! >= 128, labels);
  if (!found.length) return undefined;
  // A fold or a shadow across the paper can cut it in two: every large piece belongs to the receipt.
  const largest = found.reduce((a, r) => Math.max(a, r.area), 0);
  const pieces = found.filter((r) => r.area >= PIECE_SHARE * largest);
  const x0 = Math.min(...pieces.map((r) => r.box.left));
  const y0 = Math.min(...pieces.map((r) => r.box.top));
  const x1 = Math.max(...pieces.map((r) => r.box.left + r.box.width));
  const y1 = Math.max(...pieces.map((r) => r.box.top + r.box.height));
  // Bright pixels (even paper in shadow is above the dark split) left outside mean the box holds only part of the receipt (the rest in
  // shadow or past a fold) or the wrong bright thing: then no crop, losing print costs more than
  // keeping some table.
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (luminance[y * width + x]! <= dark) continue;
      if (x >= x0 && x < x1 && y >= y0 && y < y1) inside++;
      else outside++;
    }
  }
  if (outside > MAX_BRIGHT_OUTSIDE * inside) return undefined;
  // Paper reaching three sides of the frame fills it: cutting the fourth side gains little and,
  // when that side is paper in shadow, loses the end of the receipt.
  const touching = [x0 <= 1, y0 <= 1, x1 >= width - 1, y1 >= height - 1].filter(Boolean).length;
  if (touching >= 3) return undefined;
  const region = { area: pieces.reduce((a, r) => a + r.area, 0), box: { left: x0, top: y0, width: x1 - x0, height: y1 - y0 } };
  const boxArea = region.box.width * region.box.height;
  if (region.area < MIN_PAPER_SHARE * n || region.area < MIN_FILL * boxArea || boxArea > MAX_CROP_SHARE * n) return undefined;
  const scale = page.width / width;
  const mx = region.box.width * MARGIN;
  const my = region.box.height * MARGIN;
  const left = Math.max(0, Math.floor((x0 - mx) * scale));
  const top = Math.max(0, Math.floor((y0 - my) * scale));
  const right = Math.min(page.width, Math.ceil((x1 + mx) * scale));
  const bottom = Math.min(page.height, Math.ceil((y1 + my) * scale));
  const isPiece = found.map((r) => r.area >= PIECE_SHARE * largest);
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = labels[i] && isPiece[labels[i]! - 1] ? 1 : 0;
  return { box: { left, top, width: right - left, height: bottom - top }, mask, width, height };
}

/** Where the receipt lies in a photo, in the page's pixels (see findPaper). */
export async function findReceipt(page: PageImage): Promise<Box | undefined> {
  return (await findPaper(page))?.box;
}

/** Blurs a 0/255 mask and keeps what exceeds `level`: a low level grows the mask by about 2σ, a high one shrinks it. */
async function blurLevel(mask: Uint8Array, width: number, height: number, sigma: number, level: number): Promise<Uint8Array> {
  // Raw one-channel input comes out as sRGB unless told otherwise.
  const blurred = await sharp(mask, { raw: { width, height, channels: 1 } }).blur(sigma).toColourspace('b-w').raw().toBuffer();
  // A plain loop: Buffer#map builds its result through Buffer's species, several times slower.
  const out = new Uint8Array(blurred.length);
  for (let i = 0; i < blurred.length; i++) out[i] = blurred[i]! > level ? 255 : 0;
  return out;
}

/** Pixels below 128 that are 4-connected to the frame's edge. */
function borderConnected(mask: Uint8Array, width: number, height: number): Int32Array {
  const seen = new Uint8Array(mask.length);
  const found = new Int32Array(mask.length);
  let count = 0;
  const visit = (i: number) => {
    if (!seen[i] && mask[i]! < 128) {
      seen[i] = 1;
      found[count++] = i;
    }
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  // `found` doubles as the queue: everything visited is both result and work.
  for (let next = 0; next < count; next++) {
    const i = found[next]!;
    const x = i % width;
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i < mask.length - width) visit(i + width);
  }
  return found.subarray(0, count);
}

/** Crops a photo to its receipt; a page with no distinct receipt comes back as it was. */
export async function cropToReceipt(page: PageImage): Promise<{ page: PageImage; cropped: boolean }> {
  const box = await findReceipt(page);
  return box ? { page: await cropToBox(page, box), cropped: true } : { page, cropped: false };
}

/** The page cut to `box`, its pixels leading back through the page's own mapping. */
export async function cropToBox(page: PageImage, box: Box): Promise<PageImage> {
  const toInput = (x: number, y: number): [number, number] => [x + box.left, y + box.top];
  return sharpPage((await sharpOf(page.image)).extract(box), throughInput(page, toInput));
}
