import type { PageLine } from '../page/page.types.js';

/** Two lines share a row when their vertical extents overlap by at least this share of the shorter one. */
const ROW_OVERLAP = 0.5;

function verticalOverlap(a: PageLine['box'], b: PageLine['box']): number {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return overlap / Math.max(1, Math.min(a.height, b.height));
}

function union(boxes: Array<PageLine['box']>): PageLine['box'] {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * Receipt rows as printed: pieces an engine read as separate blocks (a description in one
 * column, its amount in another) joined left to right when they sit on the same row, rows top
 * to bottom. The rules read "Total ... 12.34" only when both halves are on one line.
 */
export function readingOrder(lines: PageLine[]): PageLine[] {
  const rows: PageLine[][] = [];
  for (const line of [...lines].sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2))) {
    const row = rows.find((r) => r.every((other) => verticalOverlap(other.box, line.box) >= ROW_OVERLAP && !overlapsHorizontally(other.box, line.box)));
    if (row) row.push(line);
    else rows.push([line]);
  }
  return rows
    .map((row) => {
      const parts = row.sort((a, b) => a.box.x - b.box.x);
      const chars = parts.reduce((n, p) => n + p.text.length, 0);
      return {
        text: parts.map((p) => p.text).join(' '),
        confidence: parts.reduce((s, p) => s + p.confidence * p.text.length, 0) / Math.max(1, chars),
        box: union(parts.map((p) => p.box)),
      };
    })
    .sort((a, b) => a.box.y - b.box.y);
}

function overlapsHorizontally(a: PageLine['box'], b: PageLine['box']): boolean {
  return Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.3 * Math.min(a.width, b.width);
}
