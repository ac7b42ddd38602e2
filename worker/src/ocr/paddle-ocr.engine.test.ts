import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { receiptsDir } from '../../../tests/support/service-process.js';
import { createPaddleOcr, PaddleTimeoutError, paddleThreadOf } from './paddle-ocr.engine.js';
import type { OcrLine } from './paddle/paddle.types.js';
import { tidyLineText } from './paddle/line-grouper.js';
import { sharedFileThere } from '../../../tests/support/shared-sets.js';
import { loadLabels } from '../../../tests/support/sroie.js';

const signal = new AbortController().signal;
const ocr = createPaddleOcr();
afterAll(() => ocr.close());

const WIDTH = 640;
const HEIGHT = 420;
/** A small receipt drawn from SVG: lines at known heights, the amounts in a column of their own. */
async function syntheticReceipt(): Promise<Buffer> {
  const row = (y: number, left: string, right = '') =>
    `<text x="40" y="${y}">${left}</text>` + (right ? `<text x="470" y="${y}">${right}</text>` : '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <rect width="100%" height="100%" fill="#fff"/>
    <g font-family="DejaVu Sans Mono" font-size="28" fill="#222">
      ${row(60, 'CORNER SHOP')}
      ${row(130, '2024-03-18 12:30')}
      ${row(200, 'MILK 2L', '3.10')}
      ${row(270, 'BREAD', '9.24')}
      ${row(340, 'TOTAL', '12.34')}
    </g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A long page: the detector reads it in several 960 × 960 tiles, each a run of a few hundred ms. */
async function tallPage(): Promise<Buffer> {
  const rows = Array.from({ length: 24 }, (_, i) => `<text x="40" y="${80 + i * 100}">ITEM ${i + 1} ........ ${(i * 1.37).toFixed(2)}</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="2500">
    <rect width="100%" height="100%" fill="#fff"/>
    <g font-family="DejaVu Sans Mono" font-size="36" fill="#222">${rows.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const lineWith = (lines: OcrLine[], text: string) => lines.findIndex((l) => l.text.includes(text));

describe('createPaddleOcr', () => {
  it('reads a page line by line, top to bottom, with the spaces and boxes where the text is', async () => {
    const { lines, confidence } = await ocr.recognizePage(await syntheticReceipt(), signal);

    expect(lines.map((l) => l.text)).toEqual(['CORNER SHOP', '2024-03-18 12:30', 'MILK 2L 3.10', 'BREAD 9.24', 'TOTAL 12.34']);
    expect(confidence).toBeGreaterThan(0.9);
    for (const [i, line] of lines.entries()) {
      expect(line.box.x).toBeGreaterThanOrEqual(0);
      expect(line.box.y).toBeGreaterThanOrEqual(0);
      expect(line.box.x + line.box.width).toBeLessThanOrEqual(WIDTH);
      expect(line.box.y + line.box.height).toBeLessThanOrEqual(HEIGHT);
      // Baselines 70 px apart from y = 60; each box straddles its own.
      expect(line.box.y).toBeLessThan(60 + 70 * i);
      expect(line.box.y + line.box.height).toBeGreaterThan(60 + 70 * i - 10);
      if (i > 0) expect(lines[i - 1]!.box.y + lines[i - 1]!.box.height).toBeLessThanOrEqual(line.box.y + line.box.height / 2);
    }
    // The amount column is part of its line's box.
    const total = lines[lineWith(lines, 'TOTAL')]!;
    expect(total.box.x).toBeLessThan(60);
    expect(total.box.x + total.box.width).toBeGreaterThan(540);
  });

  it('reads a grayscale JPEG as well', async () => {
    const jpeg = await sharp(await syntheticReceipt()).grayscale().jpeg({ quality: 70 }).toBuffer();
    const { lines } = await ocr.recognizePage(jpeg, signal);
    expect(lines.map((l) => l.text)).toContain('TOTAL 12.34');
  });

  it('gives up on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await expect(ocr.recognizePage(await syntheticReceipt(), controller.signal)).rejects.toThrow('job cancelled');
  });

  it('keeps the event loop free while a page is read', async () => {
    const page = await tallPage();
    await ocr.recognizePage(page, signal); // the thread and its sessions are up
    const gaps: number[] = [];
    let last = performance.now();
    const ticks = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 10);
    const started = performance.now();
    try {
      const { lines } = await ocr.recognizePage(page, signal);
      expect(lines.length).toBeGreaterThan(20);
    } finally {
      clearInterval(ticks);
    }
    expect(performance.now() - started).toBeGreaterThan(500);
    // On the main thread each of the page's three detector tiles held the loop for 350–500 ms.
    // One long gap is allowed: on a busy machine the OS may hold this thread back once.
    expect(gaps.filter((gap) => gap > 150).length).toBeLessThanOrEqual(1);
  });

  it('fails a page cancelled while the thread reads it at once, and keeps the thread for the next page', async () => {
    const controller = new AbortController();
    const reading = ocr.recognizePage(await tallPage(), controller.signal);
    const thread = paddleThreadOf(ocr);
    const next = ocr.recognizePage(await syntheticReceipt(), signal);
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(reading).rejects.toThrow('job cancelled');
    expect((await next).lines.map((l) => l.text)).toContain('TOTAL 12.34');
    expect(paddleThreadOf(ocr)).toBe(thread);
  });

  it('fails the page a dying thread was reading; the next page gets a new thread', async () => {
    const reading = ocr.recognizePage(await syntheticReceipt(), signal);
    const thread = paddleThreadOf(ocr)!;
    await thread.terminate();
    await expect(reading).rejects.toThrow('The Paddle OCR thread exited with code 1');
    const { lines } = await ocr.recognizePage(await syntheticReceipt(), signal);
    expect(lines.map((l) => l.text)).toContain('TOTAL 12.34');
    expect(paddleThreadOf(ocr)).not.toBe(thread);
  });

  it('fails the pages in hand on close; a later page starts the thread again', async () => {
    const own = createPaddleOcr();
    const image = await syntheticReceipt();
    const pages = Promise.allSettled([own.recognizePage(image, signal), own.recognizePage(image, signal)]);
    await own.close();
    for (const page of await pages) expect(page).toMatchObject({ status: 'rejected', reason: { message: 'The Paddle OCR engine was closed' } });
    expect(paddleThreadOf(own)).toBeNull();
    expect((await own.recognizePage(image, signal)).lines.map((l) => l.text)).toContain('TOTAL 12.34');
    await own.close();
  });

  it('closes mid-page without taking the process down, and the process then exits cleanly', async () => {
    // Ended inside an onnxruntime run, the thread took the whole process with it (SIGABRT, in one
    // close of two): a worker stopping with a page in hand did not exit 0. A process of its own
    // shows how it ends; each close lands in the page's detector tiles (350–500 ms each).
    const dir = await mkdtemp(path.join(os.tmpdir(), 'paddle-close-'));
    const page = path.join(dir, 'page.png');
    await writeFile(page, await tallPage());
    const engine = new URL('./paddle-ocr.engine.ts', import.meta.url).href;
    const script = `
      const { createPaddleOcr } = await import(${JSON.stringify(engine)});
      const image = (await import('node:fs')).readFileSync(${JSON.stringify(page)});
      const ocr = createPaddleOcr();
      const signal = new AbortController().signal;
      for (const afterMs of [250, 500, 750]) {
        await ocr.recognizePage(image, signal);
        const reading = ocr.recognizePage(image, signal).then(() => 'read', (err) => err.message);
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        await ocr.close();
        console.log(await reading);
      }
      process.exit(0);`;
    try {
      const ended = await new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code, signal) => resolve({ code, signal, out }));
      });
      expect({ code: ended.code, signal: ended.signal }, ended.out).toEqual({ code: 0, signal: null });
      expect(ended.out.match(/The Paddle OCR engine was closed/g)?.length).toBeGreaterThanOrEqual(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('fails a page not read in time and ends its thread; the page behind it gets a new thread and its own time', async () => {
    const own = createPaddleOcr({ pageTimeoutMs: 1 });
    try {
      const image = await syntheticReceipt();
      const first = own.recognizePage(image, signal);
      const thread = paddleThreadOf(own);
      const second = own.recognizePage(image, signal);
      await expect(first).rejects.toBeInstanceOf(PaddleTimeoutError);
      await expect(second).rejects.toBeInstanceOf(PaddleTimeoutError);
      expect(thread).not.toBeNull();
      expect(paddleThreadOf(own)).toBeNull();
    } finally {
      await own.close();
    }
  });

  it('reads nothing, with confidence 0, on a blank page', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await ocr.recognizePage(blank, signal)).toEqual({ lines: [], confidence: 0 });
  });
});

describe('tidyLineText', () => {
  it.each([
    ['2024-03-1812:30', '2024-03-18 12:30'],
    ['14/08/201710:42:15 AM', '14/08/2017 10:42:15 AM'],
    ['27.03.1718:49', '27.03.17 18:49'],
    ['2026年06月21日(日)15:02', '2026年06月21日(日) 15:02'],
    ['TOTAL12.34', 'TOTAL 12.34'],
    ['Summe:64,18', 'Summe: 64,18'],
    ['１２：３０　ＴＯＴＡＬ', '12:30 TOTAL'],
    ['RM 12.80  SR', 'RM 12.80 SR'],
    ['10:20:37', '10:20:37'],
  ])('%s → %s', (raw, tidy) => {
    expect(tidyLineText(raw)).toBe(tidy);
  });
});

const sroie = path.join(receiptsDir, 'X51005568881.jpg');
describe.skipIf(!sharedFileThere(sroie, 'PaddleOCR on a shared scan'))('on a shared receipt scan (../shared/receipts)', () => {
  it('finds the total, the date with its time, in reading order', async () => {
    // What the scan says comes from the set's labels when the test runs, not from this file.
    const label = (await loadLabels()).find((l) => l.file === path.basename(sroie))!;
    const { lines, confidence } = await ocr.recognizePage(await readFile(sroie), signal);
    expect(confidence).toBeGreaterThan(0.8);
    const merchant = lineWith(lines, label.company.split(' ').slice(0, 3).join(' '));
    const date = lines.findIndex((l) => new RegExp(`${label.date.replace(/[./]/g, '\\$&')} \\d{2}:\\d{2}`).test(l.text));
    const total = lines.findIndex((l) => /Total/i.test(l.text) && l.text.includes(label.total));
    expect(merchant).toBeGreaterThanOrEqual(0);
    expect(date).toBeGreaterThan(merchant);
    expect(total).toBeGreaterThan(date);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.box.y + lines[i]!.box.height).toBeGreaterThan(lines[i - 1]!.box.y);
  });
});
