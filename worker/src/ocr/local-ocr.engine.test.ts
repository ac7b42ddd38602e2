import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { printedReceipt } from '../../../tests/support/printed-receipt.js';
import { worldDir } from '../../../tests/support/receipts-world.js';
import { receiptsDir } from '../../../tests/support/service-process.js';
import { pagePreparation } from '../document/prepare-page.js';
import { boxOnOriginal, createLocalOcrEngine, lineCrop } from './local-ocr.engine.js';
import { probeNativeTesseract } from '../tesseract/tesseract-native.reader.js';
import type { DecodedDocument, PageImage } from '../page/page.types.js';
import { sharedFileThere } from '../../../tests/support/shared-sets.js';
import { extractReceiptWithSources, ISSUE_TEXTS } from '@receipts/common';

/** A made-up receipt as a decoded single-page document, shrunk by `scale`. */
async function printed(lines: string[], options: { fontSize?: number; blur?: number; scale?: number } = {}): Promise<DecodedDocument> {
  let png = await printedReceipt(lines, options);
  if (options.scale) {
    const { width = 0 } = await sharp(png).metadata();
    png = await sharp(png).resize(Math.round(width * options.scale)).png().toBuffer();
  }
  const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
  return { mimeType: 'image/png', original: png, pages: [{ image: png, width: w, height: h }] };
}

const signal = () => new AbortController().signal;
const engine = createLocalOcrEngine({ concurrency: 1, langs: ['eng', 'deu', 'jpn'], paddle: 'fallback', preparation: pagePreparation });
afterAll(() => engine.close());

async function read(doc: DecodedDocument, hints = {}) {
  return engine.recognize(await engine.prepare(doc, signal()), signal(), { now: new Date('2024-04-01'), ...hints });
}

describe('boxOnOriginal', () => {
  it('maps a box through the page\'s way back to the original', () => {
    // A page turned 90° clockwise: its (x, y) was the original's (y, W − x) in a W × H original.
    const page: PageImage = { image: Buffer.alloc(0), width: 200, height: 100, toOriginal: (x, y) => [y / 100, 1 - x / 200] };
    expect(boxOnOriginal(page, { x: 20, y: 10, width: 40, height: 30 })).toEqual({ x: 0.1, y: expect.closeTo(0.7), width: expect.closeTo(0.3), height: expect.closeTo(0.2) });
  });
  it('keeps a box inside the page', () => {
    const page: PageImage = { image: Buffer.alloc(0), width: 100, height: 100 };
    expect(boxOnOriginal(page, { x: -10, y: 90, width: 30, height: 30 })).toEqual({ x: 0, y: 0.9, width: 0.2, height: expect.closeTo(0.1) });
  });
});

describe('lineCrop', () => {
  const page = async (width: number, height: number): Promise<PageImage> => ({
    image: await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer(),
    width,
    height,
  });
  it('cuts a small line out with a margin and scales it up to a readable height', async () => {
    // A 200 × 20 box with 4 px above and below and 20 px beside is 240 × 28, scaled to 64 px high.
    const meta = await sharp(await lineCrop(await page(800, 600), { x: 100, y: 300, width: 200, height: 20 })).metadata();
    expect(meta).toMatchObject({ height: 64, width: 549 });
  });
  it('keeps the cut inside the page', async () => {
    // 80 px beside it: from x 270 to the page's right edge (130 px); 16 px below it, none above the page's top.
    const meta = await sharp(await lineCrop(await page(400, 300), { x: 350, y: 0, width: 100, height: 80 })).metadata();
    expect(meta).toMatchObject({ width: 130, height: 96 });
  });
});

describe('the local engine', () => {
  it('reads an English receipt in English, each line with its box on the page', async () => {
    const lines = ['CORNER GROCERY', 'DATE 14/03/2024', 'MILK 2.49', 'BREAD 1.85', 'SUBTOTAL 4.34', 'TAX 0.35', 'TOTAL 4.69', 'THANK YOU'];
    const doc = await read(await printed(lines));
    expect(doc.readBy).toBe('tesseract:eng');
    expect(doc.content).toBe(doc.lines!.map((l) => l.text).join('\n'));
    expect(doc.content).toContain('TOTAL 4.69');
    const total = doc.lines!.find((l) => l.text.includes('TOTAL 4.69'))!;
    const merchant = doc.lines!.find((l) => l.text.includes('CORNER'))!;
    expect(merchant.box.y).toBeLessThan(total.box.y);
    for (const l of doc.lines!) {
      expect(l.box.x).toBeGreaterThanOrEqual(0);
      expect(l.box.x + l.box.width).toBeLessThanOrEqual(1);
      expect(l.page).toBe(0);
    }
    // The total's line sits 7 lines down of 8 on the page.
    expect(total.box.y).toBeGreaterThan(0.6);
    // Read as it was stored: its picture needs no turn.
    expect(doc.pageTurns).toBeUndefined();
  });

  it('says the turn a sideways page was read at, so its picture can be shown upright', async () => {
    const lines = ['CORNER GROCERY', 'DATE 14/03/2024', 'MILK 2.49', 'BREAD 1.85', 'SUBTOTAL 4.34', 'TAX 0.35', 'TOTAL 4.69', 'THANK YOU'];
    // Stored turned a quarter counter-clockwise: a quarter clockwise shows it upright.
    const png = await sharp(await printedReceipt(lines)).rotate(270).png().toBuffer();
    const { width = 0, height = 0 } = await sharp(png).metadata();
    const doc = await read({ mimeType: 'image/png', original: png, pages: [{ image: png, width, height }] });
    expect(doc.content).toContain('TOTAL 4.69');
    expect(doc.pageTurns).toEqual([90]);
  });

  it('reads a German receipt again in German', async () => {
    const lines = ['BÄCKEREI MÜLLER GMBH', 'Datum 14.03.2024', 'Brötchen 2,40', 'Käsekuchen 3,90', 'SUMME EUR 6,30', 'Gegeben BAR 10,00', 'Rückgeld 3,70', 'MwSt 7% 0,41', 'Vielen Dank für Ihren Einkauf'];
    const doc = await read(await printed(lines));
    expect(doc.readBy).toBe('tesseract:deu');
    expect(doc.content).toMatch(/Rückgeld/);
  });

  it('asks PaddleOCR when tesseract reads a page poorly', async () => {
    const lines = ['CORNER GROCERY', 'DATE 14/03/2024', 'MILK 2.49', 'BREAD 1.85', 'TOTAL 4.34'];
    // Small, blurred print: tesseract loses confidence, the second engine is consulted.
    const doc = await read(await printed(lines, { fontSize: 28, blur: 3, scale: 0.5 }));
    expect(doc.readBy).toBe('paddle');
    expect(doc.content).toMatch(/4[.,]34/);
  });

  it('has the other reader read a total nothing else confirms, and the rules take it when both read it alike', async () => {
    const lines = ['CORNER GROCERY', 'DATE 14/03/2024', 'TOTAL 18.05', 'THANK YOU'];
    const doc = await read(await printed(lines));
    expect(doc.readBy).toBe('tesseract:eng');
    const total = doc.lines!.find((l) => l.text.includes('TOTAL'))!;
    // tesseract read the page; PaddleOCR read the total's line again.
    expect(total.readAgain).toMatch(/18[.,]05/);
    expect(doc.lines!.filter((l) => l.readAgain !== undefined)).toHaveLength(1);
    const { receipt, doubts } = extractReceiptWithSources(doc, { now: new Date('2024-04-01') });
    expect(receipt.total).toBe(18.05);
    expect(doubts).not.toContain(ISSUE_TEXTS.totalUnconfirmed);
  });

  describe.skipIf(!sharedFileThere(path.join(receiptsDir, 'X51005568881.jpg'), 'the local engine on a shared scan'))('on a shared scan turned upside down (../shared/receipts)', () => {
    it('reads it upright once the first reading comes out poor', async () => {
      const png = await sharp(await readFile(path.join(receiptsDir, 'X51005568881.jpg'))).rotate(180).png().toBuffer();
      const { width = 0, height = 0 } = await sharp(png).metadata();
      const doc = await read({ mimeType: 'image/png', original: png, pages: [{ image: png, width, height }] });
      expect(doc.content).toMatch(/10[.,]40/);
      // The first line read is the shop's name, at the top of the upright page: the bottom of the stored one.
      expect(doc.lines![0]!.box.y).toBeGreaterThan(0.5);
      expect(doc.pageTurns).toEqual([180]);
    });
  });

  describe.skipIf(!sharedFileThere(path.join(worldDir, 'jp_abcmart_1.jpg'), 'the local engine on a real Japanese receipt'))('on a real Japanese receipt (../shared/receipts-world)', () => {
    it('reads it in Japanese', async () => {
      const bytes = await readFile(path.join(worldDir, 'jp_abcmart_1.jpg'));
      const png = await sharp(bytes).rotate().resize(2000, 2000, { fit: 'inside' }).png().toBuffer();
      const { width = 0, height = 0 } = await sharp(png).metadata();
      const doc = await read({ mimeType: 'image/jpeg', original: bytes, pages: [{ image: png, width, height }] });
      expect(doc.readBy).toMatch(/^(tesseract:jpn|paddle)$/);
      expect(doc.readBy).not.toBe('tesseract:eng');
    });
  });
});

describe.skipIf(!probeNativeTesseract().ok)('the local engine with the tesseract program (OCR_TESSERACT=native)', () => {
  const native = createLocalOcrEngine({ concurrency: 1, langs: ['eng', 'deu'], tesseract: 'native', paddle: 'never', preparation: pagePreparation });
  afterAll(() => native.close());

  it('reads a German receipt again in German, as tesseract.js does', async () => {
    const lines = ['BÄCKEREI MÜLLER GMBH', 'Datum 14.03.2024', 'Brötchen 2,40', 'Käsekuchen 3,90', 'SUMME EUR 6,30', 'Gegeben BAR 10,00', 'Rückgeld 3,70', 'MwSt 7% 0,41', 'Vielen Dank für Ihren Einkauf'];
    const doc = await native.recognize(await native.prepare(await printed(lines), signal()), signal(), { now: new Date('2024-04-01') });
    expect(doc.readBy).toBe('tesseract:deu');
    expect(doc.content).toMatch(/Rückgeld 3,70/);
    expect(doc.lines!.find((l) => l.text.includes('SUMME'))!.box.y).toBeGreaterThan(0.4);
  });
});
