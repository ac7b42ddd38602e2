import type { PageImage } from '../page/page.types.js';
import { grayPage, readGray, throughInput } from './prepare-page.raster.js';
import { cropToBox, findPaper, type Paper } from './receipt-crop.step.js';

/** A point in pixels. */
export type Point = [number, number];
/** Four corners: top left, top right, bottom right, bottom left. */
export type Quad = [Point, Point, Point, Point];
/** A 3 × 3 projective transform, row after row, the last entry 1. */
export type Homography = [number, number, number, number, number, number, number, number, number];

/**
 * A corner further than this from the rectangle that best fits the four (as a share of the paper's
 * width or height, along that side) means the photo was taken at an angle: below it, the paper is
 * straight enough and the crop alone does (a rotated rectangle is deskew's business, not this step's).
 */
export const MIN_DEVIATION = 0.03;
/**
 * The four corners must cover this share of the paper's outline (convex hull): less and the paper
 * is not one flat quadrilateral (curled, folded, or two pieces), and a warp would bend the print.
 */
const MIN_QUAD_COVER = 0.9;
/** Edge pixels for a side's line are taken from its middle, this share of its length in from each corner, where the mask's corners are not rounded. */
const SIDE_MIDDLE = 0.15;
/** …and within this distance of the chord between the hull's corners (pixels of the finding copy). */
const SIDE_BAND = 4;
/** A side with fewer edge pixels than this keeps the hull's corners. */
const MIN_SIDE_PIXELS = 10;
/** A corner the fitted lines move further than this (share of the finding copy's long side) keeps the hull's. */
const MAX_CORNER_SHIFT = 0.03;
/** Corner angles outside this range (degrees) are not a sheet seen at a believable angle. */
const MIN_ANGLE = 45;
/** Margin kept around the paper, as a share of its size: as the crop keeps, print sits close to the edge. */
const MARGIN = 0.03;
/** The straightened page is kept within the decoder's size (long side). */
const MAX_SIDE = 3500;
/** Rows warped between two looks at the abort signal (a few milliseconds of work). */
const ROWS_PER_TURN = 128;

/**
 * The paper's four corners in the page's pixels: the largest quadrilateral inside the outline of
 * the paper mask the crop found, or undefined when the paper is not a quadrilateral.
 */
export function paperCorners(paper: Paper, page: { width: number }): Quad | undefined {
  const hull = convexHull(maskOutline(paper));
  if (hull.length < 4) return undefined;
  const quad = largestQuad(hull);
  if (area(quad) < MIN_QUAD_COVER * area(hull)) return undefined;
  const scale = page.width / paper.width;
  return orderCorners(fitSides(paper, quad).map(([x, y]) => [x * scale, y * scale] as Point));
}

/**
 * The corners where lines fitted to the paper's four edges meet: the mask's corners are rounded
 * by the closing that bridges the print, its straight edges are not. Each line is fitted (least
 * squares, both ways) to the mask's edge pixels along the middle of that side, near the chord
 * between the hull's corners; a side with too few of them keeps the hull's corners.
 */
function fitSides(paper: Paper, quad: Point[]): Point[] {
  const { mask, width, height } = paper;
  const edge: Point[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask[i] && (x === 0 || y === 0 || x === width - 1 || y === height - 1 || !mask[i - 1] || !mask[i + 1] || !mask[i - width] || !mask[i + width])) {
        // The pixel's centre lies half a pixel inside the paper's edge; the outward shift is applied per side below.
        edge.push([x + 0.5, y + 0.5]);
      }
    }
  }
  const cx = quad.reduce((a, p) => a + p[0], 0) / 4;
  const cy = quad.reduce((a, p) => a + p[1], 0) / 4;
  const lines: Array<{ point: Point; direction: Point } | undefined> = quad.map((p, c) => {
    const q = quad[(c + 1) % 4]!;
    const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
    const d: Point = [(q[0] - p[0]) / length, (q[1] - p[1]) / length];
    const near = edge.filter(([x, y]) => {
      const t = ((x - p[0]) * d[0] + (y - p[1]) * d[1]) / length;
      return t > SIDE_MIDDLE && t < 1 - SIDE_MIDDLE && Math.abs((x - p[0]) * d[1] - (y - p[1]) * d[0]) <= SIDE_BAND;
    });
    if (near.length < MIN_SIDE_PIXELS) return undefined;
    const mx = near.reduce((a, e) => a + e[0], 0) / near.length;
    const my = near.reduce((a, e) => a + e[1], 0) / near.length;
    let sxx = 0;
    let sxy = 0;
    let syy = 0;
    for (const [x, y] of near) {
      sxx += (x - mx) ** 2;
      sxy += (x - mx) * (y - my);
      syy += (y - my) ** 2;
    }
    const angle = Math.atan2(2 * sxy, sxx - syy) / 2;
    const direction: Point = [Math.cos(angle), Math.sin(angle)];
    // Half a pixel out, away from the paper's middle.
    const normal: Point = [-direction[1], direction[0]];
    const out = Math.sign((mx - cx) * normal[0] + (my - cy) * normal[1]) * 0.5;
    return { point: [mx + out * normal[0], my + out * normal[1]], direction };
  });
  return quad.map((corner, c) => {
    const a = lines[(c + 3) % 4];
    const b = lines[c];
    if (!a || !b) return corner;
    const det = a.direction[0] * b.direction[1] - a.direction[1] * b.direction[0];
    if (Math.abs(det) < 1e-6) return corner;
    const t = ((b.point[0] - a.point[0]) * b.direction[1] - (b.point[1] - a.point[1]) * b.direction[0]) / det;
    const met: Point = [a.point[0] + t * a.direction[0], a.point[1] + t * a.direction[1]];
    // Lines meeting far from the hull's corner were fitted to something else (a curl, a torn end).
    return Math.hypot(met[0] - corner[0], met[1] - corner[1]) <= MAX_CORNER_SHIFT * Math.max(width, height) ? met : corner;
  });
}

/** Each row's leftmost and rightmost paper pixel, by their outer edges: all the hull needs. */
function maskOutline({ mask, width, height }: Paper): Point[] {
  const points: Point[] = [];
  for (let y = 0; y < height; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0) points.push([first, y], [last + 1, y], [first, y + 1], [last + 1, y + 1]);
  }
  return points;
}

/** Andrew's monotone chain; the hull without collinear points. */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Point[]) => {
    const out: Point[] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

/** The area of a polygon (shoelace), positive when its corners run clockwise on the screen (y down). */
function signedArea(polygon: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i]!;
    const [x1, y1] = polygon[(i + 1) % polygon.length]!;
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}

const area = (polygon: readonly Point[]) => Math.abs(signedArea(polygon));

/**
 * The largest quadrilateral with corners on a convex polygon's vertices: for each diagonal, the
 * farthest vertex either side; the farthest moves one way as the diagonal turns, so O(n²).
 */
function largestQuad(hull: Point[]): Quad {
  const n = hull.length;
  const at = (i: number) => hull[i % n]!;
  const triangle = (a: number, b: number, c: number) => area([at(a), at(b), at(c)]);
  let best: { area: number; quad: number[] } = { area: -1, quad: [0, 1, 2, 3] };
  for (let i = 0; i < n; i++) {
    let j = i + 1;
    let l = i + 3;
    for (let k = i + 2; k < i + n - 1; k++) {
      while (j + 1 < k && triangle(i, j + 1, k) >= triangle(i, j, k)) j++;
      l = Math.max(l, k + 1);
      while (l + 1 < i + n && triangle(i, k, l + 1) >= triangle(i, k, l)) l++;
      const quadArea = triangle(i, j, k) + triangle(i, k, l);
      if (quadArea > best.area) best = { area: quadArea, quad: [i, j, k, l] };
    }
  }
  return best.quad.map(at) as Quad;
}

/** The corners clockwise from the one that is the page's top left, so the page keeps its way up. */
function orderCorners(corners: Point[]): Quad {
  const clockwise = signedArea(corners) < 0 ? [...corners].reverse() : corners;
  const xs = clockwise.map((p) => p[0]);
  const ys = clockwise.map((p) => p[1]);
  const box: Point[] = [
    [Math.min(...xs), Math.min(...ys)],
    [Math.max(...xs), Math.min(...ys)],
    [Math.max(...xs), Math.max(...ys)],
    [Math.min(...xs), Math.max(...ys)],
  ];
  let best = { distance: Infinity, shift: 0 };
  for (let shift = 0; shift < 4; shift++) {
    let distance = 0;
    for (let c = 0; c < 4; c++) distance += Math.hypot(clockwise[(c + shift) % 4]![0] - box[c]![0], clockwise[(c + shift) % 4]![1] - box[c]![1]);
    if (distance < best.distance) best = { distance, shift };
  }
  return [0, 1, 2, 3].map((c) => clockwise[(c + best.shift) % 4]!) as Quad;
}

/**
 * How far the corners are from being a rectangle: the largest offset of a corner from the
 * rectangle that fits them best (centred on them, turned to their sides' mean direction, their
 * mean width and height), as a share of the width (along it) or height (along that).
 */
export function rectangleDeviation(quad: Quad): number {
  const [tl, tr, br, bl] = quad;
  const unit = (a: Point, b: Point): Point => {
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    return [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
  };
  // The side vectors, the upright ones turned a quarter counter-clockwise to run along the width.
  const along = [unit(tl, tr), unit(bl, br), unit(tl, bl), unit(tr, br)].map(([x, y], i): Point => (i < 2 ? [x, y] : [y, -x]));
  const ux = along.reduce((a, p) => a + p[0], 0);
  const uy = along.reduce((a, p) => a + p[1], 0);
  const length = Math.hypot(ux, uy) || 1;
  const u: Point = [ux / length, uy / length];
  const v: Point = [-u[1], u[0]];
  const cx = (tl[0] + tr[0] + br[0] + bl[0]) / 4;
  const cy = (tl[1] + tr[1] + br[1] + bl[1]) / 4;
  const a = quad.map((p) => (p[0] - cx) * u[0] + (p[1] - cy) * u[1]);
  const b = quad.map((p) => (p[0] - cx) * v[0] + (p[1] - cy) * v[1]);
  const w = a.reduce((s, x) => s + Math.abs(x), 0) / 4;
  const h = b.reduce((s, y) => s + Math.abs(y), 0) / 4;
  const signs = [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const;
  let worst = 0;
  for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(a[c]! - signs[c]![0] * w) / (2 * w || 1), Math.abs(b[c]! - signs[c]![1] * h) / (2 * h || 1));
  return worst;
}

/** The smallest corner angle in degrees (90 for a rectangle). */
function smallestAngle(quad: Quad): number {
  let smallest = 180;
  for (let c = 0; c < 4; c++) {
    const p = quad[c]!;
    const a = quad[(c + 3) % 4]!;
    const b = quad[(c + 1) % 4]!;
    const angle = Math.abs(Math.atan2(a[1] - p[1], a[0] - p[0]) - Math.atan2(b[1] - p[1], b[0] - p[0]));
    smallest = Math.min(smallest, ((angle > Math.PI ? 2 * Math.PI - angle : angle) * 180) / Math.PI);
  }
  return smallest;
}

/** The projective transform taking each of `from`'s four points to the same corner of `to` (8 × 8 linear system). */
export function homography(from: Quad, to: Quad): Homography {
  const rows: number[][] = [];
  for (let c = 0; c < 4; c++) {
    const [x, y] = from[c]!;
    const [X, Y] = to[c]!;
    rows.push([x, y, 1, 0, 0, 0, -x * X, -y * X, X]);
    rows.push([0, 0, 0, x, y, 1, -x * Y, -y * Y, Y]);
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const p = rows[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('degenerate corners: three of them on one line');
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r]![col]! / p;
      for (let k = col; k < 9; k++) rows[r]![k]! -= f * rows[col]![k]!;
    }
  }
  const h = rows.map((row, i) => row[8]! / row[i]!);
  return [...h, 1] as Homography;
}

export function project(m: Homography, x: number, y: number): Point {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

/**
 * The quadrilateral `corners` of the page warped to an upright rectangle (plus a margin), grayscale,
 * by inverse mapping with bilinear sampling; each new pixel leads back through the homography.
 */
export async function warpToRectangle(page: PageImage, corners: Quad, signal: AbortSignal): Promise<PageImage> {
  const [tl, tr, br, bl] = corners;
  const dist = (a: Point, b: Point) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  // The longer of each pair of opposite sides: the near end of the paper keeps its resolution.
  let width = Math.max(dist(tl, tr), dist(bl, br));
  let height = Math.max(dist(tl, bl), dist(tr, br));
  const fit = Math.min(1, MAX_SIDE / ((1 + 2 * MARGIN) * Math.max(width, height)));
  width *= fit;
  height *= fit;
  const mx = width * MARGIN;
  const my = height * MARGIN;
  const outWidth = Math.max(1, Math.round(width + 2 * mx));
  const outHeight = Math.max(1, Math.round(height + 2 * my));
  const target: Quad = [[mx, my], [mx + width, my], [mx + width, my + height], [mx, my + height]];
  const toInput = homography(target, corners);
  const source = await readGray(page);
  signal.throwIfAborted();
  const out = new Uint8Array(outWidth * outHeight);
  const { data, width: sw, height: sh } = source;
  const [a, b, c, d, e, f, g, h] = toInput;
  for (let y = 0; y < outHeight; y++) {
    if (y % ROWS_PER_TURN === 0 && y > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
    }
    // Pixel centres: the new pixel's centre maps to a point whose surrounding source centres are blended.
    const cy = y + 0.5;
    for (let x = 0; x < outWidth; x++) {
      const cx = x + 0.5;
      const w = g * cx + h * cy + 1;
      const sx = (a * cx + b * cy + c) / w - 0.5;
      const sy = (d * cx + e * cy + f) / w - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      // Past the frame's edge there is nothing photographed: white, like paper, so it reads as margin.
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) {
        out[y * outWidth + x] = 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * sw + x0;
      const top = data[i]! + fx * (data[i + 1]! - data[i]!);
      const bottom = data[i + sw]! + fx * (data[i + sw + 1]! - data[i + sw]!);
      out[y * outWidth + x] = Math.round(top + fy * (bottom - top));
    }
  }
  return grayPage({ data: out, width: outWidth, height: outHeight }, throughInput(page, (x, y) => project(toInput, x, y)));
}

/**
 * A photo cropped to its receipt and, when the paper was photographed at an angle (its corners
 * clearly not a rectangle), straightened: the paper's quadrilateral warped to an upright rectangle.
 */
export async function straightenReceipt(
  page: PageImage,
  options: { signal: AbortSignal },
): Promise<{ page: PageImage; cropped: boolean; warped: boolean; corners?: Quad }> {
  const paper = await findPaper(page);
  if (!paper) return { page, cropped: false, warped: false };
  options.signal.throwIfAborted();
  const corners = paperCorners(paper, page);
  if (!corners || rectangleDeviation(corners) < MIN_DEVIATION || smallestAngle(corners) < MIN_ANGLE) {
    return { page: await cropToBox(page, paper.box), cropped: true, warped: false, corners };
  }
  return { page: await warpToRectangle(page, corners, options.signal), cropped: true, warped: true, corners };
}
