import type { OcrLine } from './paddle.types.js';
import { boundingRect, type Rect, type RotatedBox } from './rotated-box.js';

/** One detected box and what the recogniser read in it. */
export interface ReadBox {
  box: RotatedBox;
  text: string;
  confidence: number;
}

/**
 * Boxes whose centres are this close across the text direction, in box heights, share a line.
 * Boxes are grown past their text (unclip), to more than the line pitch of dense receipts: at
 * 0.5 a price joined the line above it.
 */
const SAME_LINE = 0.3;
/** Two boxes overlapping along the line by more than this share of the narrower are not neighbours. */
const OVERLAP = 0.3;

interface Placed extends ReadBox {
  /** Centre along and across the page's text direction. */
  along: number;
  across: number;
}

interface Line {
  across: number;
  height: number;
  members: Placed[];
}

/**
 * The boxes as lines of text, top to bottom, each left to right with a space between boxes,
 * in the page's own text direction (a slightly skewed page still reads line by line).
 */
export function groupLines(items: readonly ReadBox[], width: number, height: number): OcrLine[] {
  const skew = weightedMedian(items.map((i) => [i.box.angle, i.box.width]));
  const cos = Math.cos(skew);
  const sin = Math.sin(skew);
  const placed: Placed[] = items
    .map((item) => ({ ...item, along: item.box.cx * cos + item.box.cy * sin, across: -item.box.cx * sin + item.box.cy * cos }))
    .sort((a, b) => a.across - b.across);

  const lines: Line[] = [];
  for (const item of placed) {
    let best: Line | null = null;
    for (const line of lines) {
      const distance = Math.abs(item.across - line.across);
      if (distance >= SAME_LINE * Math.min(item.box.height, line.height)) continue;
      if (line.members.some((m) => overlapAlong(m, item) > OVERLAP)) continue;
      if (!best || distance < Math.abs(item.across - best.across)) best = line;
    }
    if (best) {
      best.members.push(item);
      best.across += (item.across - best.across) / best.members.length;
      best.height += (item.box.height - best.height) / best.members.length;
    } else {
      lines.push({ across: item.across, height: item.box.height, members: [item] });
    }
  }

  return lines
    .sort((a, b) => a.across - b.across)
    .map((line) => {
      const members = line.members.sort((a, b) => a.along - b.along);
      const chars = members.reduce((sum, m) => sum + m.text.length, 0);
      return {
        text: tidyLineText(members.map((m) => m.text).join(' ')),
        confidence: chars ? members.reduce((sum, m) => sum + m.confidence * m.text.length, 0) / chars : 0,
        box: union(members.map((m) => boundingRect(m.box, width, height))),
      };
    });
}

/** Share of the narrower box that the two boxes have in common along the text direction. */
function overlapAlong(a: Placed, b: Placed): number {
  const from = Math.max(a.along - a.box.width / 2, b.along - b.box.width / 2);
  const to = Math.min(a.along + a.box.width / 2, b.along + b.box.width / 2);
  return Math.max(0, to - from) / Math.max(1, Math.min(a.box.width, b.box.width));
}

/** The value at half the total weight (0 when there is none). */
function weightedMedian(pairs: Array<[number, number]>): number {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const half = sorted.reduce((sum, [, w]) => sum + w, 0) / 2;
  let seen = 0;
  for (const [value, weight] of sorted) {
    seen += weight;
    if (seen >= half) return value;
  }
  return 0;
}

function union(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x, y, width: right - x, height: bottom - y };
}

// A date directly followed by a time: yyyy-mm-dd, dd/mm/yyyy, dd.mm.yy, a Japanese 日 or a closing bracket.
const DATE_THEN_TIME = /((?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2}))|\d日|\))(?=\d{1,2}:\d{2})/g;
// A word glued to an amount ("TOTAL12.34"): the total rules look for whole words.
const WORD_THEN_AMOUNT = /(\p{L}{2,}[:.]?)(?=[$€£¥₹]?\d+[.,]\d{2}(?!\d))/gu;

/**
 * NFKC (PP-OCR emits full-width digits and punctuation), then the spaces it leaves out where
 * they must be: between a date and a time, and between a word and an amount.
 */
export function tidyLineText(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().replace(DATE_THEN_TIME, '$1 ').replace(WORD_THEN_AMOUNT, '$1 ');
}
