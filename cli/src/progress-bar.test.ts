import { describe, expect, it } from 'vitest';
import { barLine, ProgressBar } from './progress-bar.js';

const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return { isTTY, columns: 60, written, write: (text: string) => written.push(text) };
};

describe('ProgressBar', () => {
  it('redraws one bar in place on a terminal, and ends its line when finished', () => {
    const tty = stream(true);
    const bar = new ProgressBar(tty, 'Uploading', 4);
    bar.tick('a.jpg');
    bar.tick('b.jpg');
    bar.finish();
    expect(tty.written).toEqual([
      `\r${barLine('Uploading', 0, 4, 60)}\x1b[K`,
      `\r${barLine('Uploading', 1, 4, 60)}\x1b[K`,
      `\r${barLine('Uploading', 2, 4, 60)}\x1b[K`,
      '\n',
    ]);
  });

  it('writes a plain line per step elsewhere, and nothing else', () => {
    const pipe = stream(false);
    const bar = new ProgressBar(pipe, 'Processing', 2);
    bar.tick('a.jpg: completed');
    bar.tick('b.jpg: failed');
    bar.finish();
    expect(pipe.written).toEqual(['Processing 1/2 a.jpg: completed\n', 'Processing 2/2 b.jpg: failed\n']);
  });

  it('never counts past its total', () => {
    const pipe = stream(false);
    const bar = new ProgressBar(pipe, 'x', 1);
    bar.tick('a');
    bar.tick('b');
    expect(pipe.written.at(-1)).toBe('x 1/1 b\n');
  });
});

describe('barLine', () => {
  it('fills in proportion to what is done', () => {
    const hashes = (line: string) => (line.match(/#/g) ?? []).length;
    expect(hashes(barLine('u', 0, 8))).toBe(0);
    expect(hashes(barLine('u', 2, 8))).toBe(6);
    expect(hashes(barLine('u', 8, 8))).toBe(24);
    expect(barLine('u', 3, 8)).toMatch(/ 3\/8$/);
  });

  it('fits the terminal', () => {
    expect(barLine('Uploading', 1, 2, 20).length).toBeLessThan(20);
  });
});
