/** A rectangle turned by `angle` (radians, within ±π/4, so `width` runs along the text). */
export interface RotatedBox {
  cx: number;
  cy: number;
  width: number;
  height: number;
  angle: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Convex hull of points given as [x0, y0, x1, y1, …] (monotone chain), counter-clockwise. */
function convexHull(xy: readonly number[]): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let i = 0; i < xy.length; i += 2) points.push([xy[i]!, xy[i + 1]!]);
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (points.length < 3) return points;
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Array<[number, number]> = [];
  for (const p of points) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Array<[number, number]> = [];
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** The smallest-area rectangle around the points (rotating calipers over the hull's edges). */
export function minAreaRect(xy: readonly number[]): RotatedBox {
  const hull = convexHull(xy);
  let best: RotatedBox | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const [x0, y0] = hull[i]!;
    const [x1, y1] = hull[(i + 1) % hull.length]!;
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (length === 0) continue;
    const ux = (x1 - x0) / length;
    const uy = (y1 - y0) / length;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const [x, y] of hull) {
      const u = x * ux + y * uy;
      const v = -x * uy + y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const u = (minU + maxU) / 2;
      const v = (minV + maxV) / 2;
      best = { cx: u * ux - v * uy, cy: u * uy + v * ux, width: maxU - minU, height: maxV - minV, angle: Math.atan2(uy, ux) };
    }
  }
  if (!best) {
    // Fewer than two distinct points: a degenerate box where they are.
    const hx = hull.map((p) => p[0]);
    const hy = hull.map((p) => p[1]);
    return { cx: (Math.min(...hx) + Math.max(...hx)) / 2, cy: (Math.min(...hy) + Math.max(...hy)) / 2, width: 0, height: 0, angle: 0 };
  }
  return uprightBox(best);
}

/** The same rectangle described with its angle within ±π/4: the page is upright, so its long side is the text. */
function uprightBox(box: RotatedBox): RotatedBox {
  let { angle, width, height } = box;
  while (angle > Math.PI / 2) angle -= Math.PI;
  while (angle <= -Math.PI / 2) angle += Math.PI;
  if (angle > Math.PI / 4) {
    angle -= Math.PI / 2;
    [width, height] = [height, width];
  } else if (angle < -Math.PI / 4) {
    angle += Math.PI / 2;
    [width, height] = [height, width];
  }
  return { ...box, angle, width, height };
}

/** The four corners: top-left, top-right, bottom-right, bottom-left. */
export function corners(box: RotatedBox): Array<[number, number]> {
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const hw = box.width / 2;
  const hh = box.height / 2;
  return [
    [-hw, -hh],
    [hw, -hh],
    [hw, hh],
    [-hw, hh],
  ].map(([u, v]) => [box.cx + u! * cos - v! * sin, box.cy + u! * sin + v! * cos]);
}

/** The axis-aligned rectangle around the box, clipped to a `width` × `height` image. */
export function boundingRect(box: RotatedBox, width: number, height: number): Rect {
  const points = corners(box);
  const x0 = Math.max(0, Math.floor(Math.min(...points.map((p) => p[0]))));
  const y0 = Math.max(0, Math.floor(Math.min(...points.map((p) => p[1]))));
  const x1 = Math.min(width, Math.ceil(Math.max(...points.map((p) => p[0]))));
  const y1 = Math.min(height, Math.ceil(Math.max(...points.map((p) => p[1]))));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}
