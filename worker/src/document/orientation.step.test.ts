import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptsDir } from '../../../tests/support/service-process.js';
import { uprightTurn, type PageImage } from '../page/page.types.js';
import { closeOrientationDetector, detectOrientation } from '../tesseract/orientation.detector.js';
import { TesseractTimeoutError } from '../tesseract/tesseract.reader.js';
import { chooseTurn, OSD_SIDE, orientPage, osdProbe, turnPage } from './orientation.step.js';
import { syntheticPhoto } from './prepare-page.fixture.js';
import { sharedFileThere } from '../../../tests/support/shared-sets.js';

const require = createRequire(import.meta.url);
const signal = new AbortController().signal;

/** A page as decoding delivers it: stored pixels turned `turn` degrees clockwise, no mapping of its own. */
async function turned(image: Buffer, turn: number): Promise<PageImage> {
  const { data, info } = await sharp(image).rotate(turn).grayscale().png().toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height };
}

afterAll(closeOrientationDetector);

describe('orientPage on made-up print', () => {
  it.each([0, 90, 180, 270])('turns a receipt stored %i° clockwise back upright', async (turn) => {
    // The receipt alone, as orientation sees it after the crop.
    const photo = await syntheticPhoto();
    const receipt = await sharp(photo.image).extract(photo.paper).png().toBuffer();
    const { rotated, page } = await orientPage(await turned(receipt, turn), { signal });
    expect(rotated).toBe((360 - turn) % 360);
    expect([page.width, page.height]).toEqual([photo.paper.width, photo.paper.height]);
  });
});

describe('uprightTurn', () => {
  it('names the turn a page was read at, so its picture can be shown that way', async () => {
    const page = { image: await sharp({ create: { width: 40, height: 60, channels: 3, background: '#fff' } }).png().toBuffer(), width: 40, height: 60 };
    expect(uprightTurn(page)).toBe(0);
    for (const turn of [90, 180, 270] as const) expect(uprightTurn(await turnPage(page, turn))).toBe(turn);
    // Turned twice: the turns add up.
    expect(uprightTurn(await turnPage(await turnPage(page, 90), 180))).toBe(270);
  });
});

describe('osdProbe', () => {
  const page = async (width: number, height: number): Promise<PageImage> => ({
    image: await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer(),
    width,
    height,
  });

  it('shrinks a large page to OSD_SIDE and states the readers\' resolution scaled with it', async () => {
    const meta = await sharp(await osdProbe(await page(2 * OSD_SIDE, 1000))).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([OSD_SIDE, 500, 1]);
    expect(meta.density).toBeCloseTo(150, 0);
  });

  it('keeps a small page at its size and 300 dpi', async () => {
    const meta = await sharp(await osdProbe(await page(800, 600))).metadata();
    expect([meta.width, meta.height]).toEqual([800, 600]);
    expect(meta.density).toBeCloseTo(300, 0);
  });
});

describe('detectOrientation past its time', () => {
  it('gives up, ends its worker, and answers the next question with a new one', async () => {
    const photo = await syntheticPhoto();
    const receipt = await sharp(photo.image).extract(photo.paper).rotate(90).png().toBuffer();
    await expect(detectOrientation(receipt, signal, 1)).rejects.toBeInstanceOf(TesseractTimeoutError);
    await expect(detectOrientation(receipt, signal)).resolves.toMatchObject({ rotate: 270 });
  });

  it('gives up at once when its job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(detectOrientation(await syntheticPhoto().then((p) => p.image), controller.signal)).rejects.toThrow('cancelled');
  });
});

describe.skipIf(!sharedFileThere(path.join(receiptsDir, 'labels.json'), 'orientation of shared receipts'))('orientPage on a shared receipt', () => {
  const file = path.join(receiptsDir, 'X51005568881.jpg');
  let ocr: Tesseract.Worker;
  beforeAll(async () => {
    ocr = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: (require('@tesseract.js-data/eng') as { langPath: string }).langPath,
      gzip: true,
      cacheMethod: 'none',
    });
  });
  afterAll(async () => ocr?.terminate());

  it.each([90, 180, 270])('reads it upright when it is stored turned %i° clockwise', async (turn) => {
    const { rotated, page } = await orientPage(await turned(await sharp(file).toBuffer(), turn), { signal });
    expect(rotated).toBe(360 - turn);
    const { data } = await ocr.recognize(page.image);
    expect(data.text).toContain('10.40');
  });
});

describe('chooseTurn: how sure OSD must be', () => {
  const portrait = { width: 1000, height: 3000 };
  const landscape = { width: 3000, height: 1000 };
  it.each<[string, { rotate: 0 | 90 | 180 | 270; confidence: number }, { width: number; height: number }, boolean, number]>([
    ['a clear half turn', { rotate: 180, confidence: 2.5 }, portrait, false, 180],
    ['an unsure half turn, acted on at once', { rotate: 180, confidence: 1 }, portrait, false, 0],
    ['an unsure half turn, to be judged by a second reading', { rotate: 180, confidence: 1 }, portrait, true, 180],
    ['a mere hint, even on trial', { rotate: 180, confidence: 0.3 }, portrait, true, 0],
    ['a quarter turn of a landscape page', { rotate: 90, confidence: 0.1 }, landscape, false, 90],
    ['an unsure quarter turn of a portrait page', { rotate: 270, confidence: 1.5 }, portrait, false, 0],
  ])('%s', (_, guess, page, trial, turn) => {
    expect(chooseTurn({ ...guess, script: 'Latin', scriptConfidence: 1 }, page, trial)).toBe(turn);
  });

  it('takes only quarter turns when asked before any reading (a landscape page is sideways, not upside down)', () => {
    const guess = (rotate: 0 | 90 | 180 | 270) => ({ rotate, confidence: 2.5, script: 'Latin', scriptConfidence: 1 });
    expect(chooseTurn(guess(180), landscape, false, true)).toBe(0);
    expect(chooseTurn(guess(90), landscape, false, true)).toBe(90);
    expect(chooseTurn(guess(180), landscape, false, false)).toBe(180);
  });
});
