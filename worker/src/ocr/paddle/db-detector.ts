import { type InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { corners, minAreaRect, type RotatedBox } from './rotated-box.js';

/** An 8-bit RGB image, pixels interleaved row by row. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DetectorSettings {
  /**
   * The detector's input is at most this wide, and a taller page runs in tiles of this height:
   * a long receipt shrunk to fit whole would leave its print too small to find, and one run's
   * memory follows its tile's area.
   */
  maxSide: number;
}

// PaddleOCR's DB post-processing defaults (det_db_thresh, det_db_box_thresh, det_db_unclip_ratio).
const PIXEL_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
const MIN_SIZE = 3;
const MAX_CANDIDATES = 1000;
// PaddleOCR det normalisation (ImageNet), on RGB / 255.
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
/** Rows each tile shares with its neighbour on either side: the network's view is poor near a cut. */
const TILE_MARGIN = 64;

const multipleOf32 = (n: number) => Math.max(32, Math.round(n / 32) * 32);

/** Text regions of the image as rotated boxes, in the image's pixels, unordered. */
export async function detectText(
  session: InferenceSession,
  image: RgbImage,
  settings: DetectorSettings,
  signal: AbortSignal,
): Promise<RotatedBox[]> {
  const { width, height } = image;
  const scale = Math.min(1, settings.maxSide / width);
  const dw = multipleOf32(width * scale);
  const dh = multipleOf32(height * scale);
  const resized = await sharp(image.data, { raw: { width, height, channels: 3 } })
    .resize(dw, dh, { fit: 'fill' })
    .raw()
    .toBuffer();

  const prob = new Float32Array(dw * dh);
  const tileHeight = Math.max(32 + 4 * TILE_MARGIN, Math.floor(settings.maxSide / 32) * 32);
  for (let start = 0; ; start += tileHeight - 2 * TILE_MARGIN) {
    signal.throwIfAborted();
    const end = Math.min(dh, start + tileHeight);
    const tile = await runTile(session, resized, dw, start, end);
    // Each tile keeps its middle rows; the first and last keep their outer edge too.
    const keepFrom = start === 0 ? 0 : start + TILE_MARGIN;
    const keepTo = end === dh ? dh : end - TILE_MARGIN;
    prob.set(tile.subarray((keepFrom - start) * dw, (keepTo - start) * dw), keepFrom * dw);
    if (end === dh) break;
    // Back to the event loop between runs: a run blocks the thread it is on.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return boxesFromMap(prob, dw, dh).map((box) => toImage(box, dw / width, dh / height));
}

async function runTile(session: InferenceSession, rgb: Buffer, width: number, from: number, to: number): Promise<Float32Array> {
  const rows = to - from;
  const plane = width * rows;
  const input = new Float32Array(3 * plane);
  const offset = from * width * 3;
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) input[c * plane + i] = (rgb[offset + i * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
  }
  const feeds = { [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, rows, width]) };
  const output = (await session.run(feeds))[session.outputNames[0]!]!;
  return output.data as Float32Array;
}

/** DB post-processing: connected regions above the pixel threshold, scored, boxed and grown back. */
function boxesFromMap(prob: Float32Array, width: number, height: number): RotatedBox[] {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: RotatedBox[] = [];
  let next = 0;
  for (let seed = 0; seed < prob.length && boxes.length < MAX_CANDIDATES; seed++) {
    if (labels[seed] !== 0 || prob[seed]! <= PIXEL_THRESHOLD) continue;
    const id = ++next;
    // 4-connected flood fill: diagonal touches would merge neighbouring lines.
    let top = 0;
    stack[top++] = seed;
    labels[seed] = id;
    let sum = 0, count = 0;
    let minX = width, maxX = 0, minY = height, maxY = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      sum += prob[p]!;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0 && labels[p - 1] === 0 && prob[p - 1]! > PIXEL_THRESHOLD) (labels[p - 1] = id), (stack[top++] = p - 1);
      if (x < width - 1 && labels[p + 1] === 0 && prob[p + 1]! > PIXEL_THRESHOLD) (labels[p + 1] = id), (stack[top++] = p + 1);
      if (y > 0 && labels[p - width] === 0 && prob[p - width]! > PIXEL_THRESHOLD) (labels[p - width] = id), (stack[top++] = p - width);
      if (y < height - 1 && labels[p + width] === 0 && prob[p + width]! > PIXEL_THRESHOLD) (labels[p + width] = id), (stack[top++] = p + width);
    }
    if (maxX - minX + 1 < MIN_SIZE || maxY - minY + 1 < MIN_SIZE || sum / count < BOX_THRESHOLD) continue;

    // Each row's outermost pixels (their outer corners) carry the region's convex hull.
    const outline: number[] = [];
    for (let y = minY; y <= maxY; y++) {
      let left = -1, right = -1;
      for (let x = minX, p = y * width + minX; x <= maxX; x++, p++) {
        if (labels[p] !== id) continue;
        if (left < 0) left = x;
        right = x;
      }
      if (left >= 0) outline.push(left, y, left, y + 1, right + 1, y, right + 1, y + 1);
    }
    const box = minAreaRect(outline);
    if (Math.min(box.width, box.height) < MIN_SIZE) continue;
    // Unclip as PaddleOCR does: grow by area × ratio / perimeter, since DB shrinks text regions.
    const grow = (box.width * box.height * UNCLIP_RATIO) / (2 * (box.width + box.height));
    const grown = { ...box, width: box.width + 2 * grow, height: box.height + 2 * grow };
    if (Math.min(grown.width, grown.height) < MIN_SIZE + 2) continue;
    boxes.push(grown);
  }
  return boxes;
}

/** From the detector's scaled pixels back to the image's (the two axes may scale a little differently). */
function toImage(box: RotatedBox, sx: number, sy: number): RotatedBox {
  return minAreaRect(corners(box).flatMap(([x, y]) => [x / sx, y / sy]));
}
