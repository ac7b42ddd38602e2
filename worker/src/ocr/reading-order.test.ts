import { describe, expect, it } from 'vitest';
import type { PageLine } from '../page/page.types.js';
import { readingOrder } from './reading-order.js';

const line = (text: string, x: number, y: number, width = 100, height = 20): PageLine => ({ text, confidence: 0.9, box: { x, y, width, height } });

describe('readingOrder', () => {
  it('joins a description and its amount read as two blocks into one row', () => {
    const rows = readingOrder([line('TOTAL', 10, 100), line('Milk', 10, 60), line('12.34', 300, 102), line('1.99', 300, 58)]);
    expect(rows.map((r) => r.text)).toEqual(['Milk 1.99', 'TOTAL 12.34']);
    expect(rows[1]!.box).toEqual({ x: 10, y: 100, width: 390, height: 22 });
  });

  it('keeps lines that only touch vertically apart', () => {
    const rows = readingOrder([line('first', 10, 0), line('second', 200, 14)]);
    expect(rows.map((r) => r.text)).toEqual(['first', 'second']);
  });

  it('never merges two lines stacked in the same column', () => {
    const rows = readingOrder([line('a', 10, 0, 100, 40), line('b', 20, 15, 100, 40)]);
    expect(rows).toHaveLength(2);
  });

  it('weights the row confidence by text length', () => {
    const [row] = readingOrder([{ ...line('abcd', 0, 0), confidence: 1 }, { ...line('x', 200, 0), confidence: 0.5 }]);
    expect(row!.confidence).toBeCloseTo(0.9);
  });
});
