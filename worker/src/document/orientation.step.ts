import type { PageImage } from '../page/page.types.js';
import { ThreadStartTimeoutError } from '../tesseract/deadline.js';
import { detectOrientation, type OrientationGuess } from '../tesseract/orientation.detector.js';
import { TESSERACT_READING, TesseractTimeoutError } from '../tesseract/tesseract.reader.js';
import { sharpOf } from '../page/page-pixels.js';
import { sharpPage, throughInput } from './prepare-page.raster.js';

/** OSD reads a page this size (long side): enough for receipt print, ~0.3 s instead of seconds at full size. */
export const OSD_SIDE = 1400;
/**
 * OSD margins below which its guess is not acted on: a wrong turn costs the whole receipt, a missed
 * one only a sideways page, and most uploads are upright. Receipts are long, so a quarter turn is
 * believed at once on a landscape page and only when clear on a portrait one; a half turn only when
 * clear (at 1, photos were flipped). Tuned on the world set's tune half, bench/prepare-page.bench.ts.
 */
const MIN_CONFIDENCE = { halfTurn: 2, quarterTurnLandscape: 0, quarterTurnPortrait: 2 };
/**
 * When the page as it stands read poorly, a turn is only tried: the turned page is read again and
 * the better reading kept (local-ocr.engine.ts), so a weaker guess is worth acting on. A crumpled
 * photo upside down gave OSD a margin of 1.0.
 */
const TRIAL_CONFIDENCE = 0.5;

export interface Oriented {
  page: PageImage;
  /** Clockwise degrees the page was turned. */
  rotated: 0 | 90 | 180 | 270;
  /** OSD saw a half turn that was not acted on (`quarterOnly`): worth asking again if the reading is poor. */
  halfTurnDeferred: boolean;
  script?: string;
  scriptConfidence?: number;
}

/** Turns a page by a multiple of 90° clockwise; its mapping leads back to the input's pixels. */
export async function turnPage(page: PageImage, rotate: 0 | 90 | 180 | 270): Promise<PageImage> {
  if (rotate === 0) return page;
  const { width: w, height: h } = page;
  const toInput = (x: number, y: number): [number, number] =>
    rotate === 90 ? [y, h - x] : rotate === 180 ? [w - x, h - y] : [w - y, x];
  return sharpPage((await sharpOf(page.image)).rotate(rotate), throughInput(page, toInput));
}

/** OSD's answer per page image: the script check after a poor reading and the turn tried later ask about the same page. */
const guesses = new WeakMap<PageImage, Promise<OrientationGuess | undefined>>();

/** Tesseract's OSD on a shrunk grayscale copy of the page (asked once per page). */
export function guessOrientation(page: PageImage, options: { signal: AbortSignal }): Promise<OrientationGuess | undefined> {
  let guess = guesses.get(page);
  if (!guess) {
    guess = askOsd(page, options);
    guesses.set(page, guess);
    // A cancelled or failed question is asked again by the next caller.
    guess.catch(() => guesses.delete(page));
  }
  return guess;
}

/**
 * The page as OSD reads it: shrunk to OSD_SIDE, one channel, and stating its resolution (the
 * readers' 300 dpi, scaled with the shrink). Without one, tesseract warned on every page and took
 * 70 dpi; with it, on the world set and the SROIE scans, OSD named one more script right (57 of
 * 83 Latin pages) and put one more turned page right on the holdout half, the same on the tune
 * half (bench/prepare-page.bench.ts osd).
 */
export async function osdProbe(page: PageImage): Promise<Buffer> {
  const scale = Math.min(1, OSD_SIDE / Math.max(page.width, page.height));
  return (await sharpOf(page.image))
    .resize({ width: OSD_SIDE, height: OSD_SIDE, fit: 'inside', withoutEnlargement: true })
    // One channel, as sharpPage writes pages for tesseract.
    .toColourspace('b-w')
    .withDensity(TESSERACT_READING.dpi * scale)
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function askOsd(page: PageImage, options: { signal: AbortSignal }): Promise<OrientationGuess | undefined> {
  const probe = await osdProbe(page);
  return detectOrientation(probe, options.signal).catch((err: unknown) => {
    // OSD that cannot decide in time is no guess: the page is read the way it is.
    if (err instanceof TesseractTimeoutError || err instanceof ThreadStartTimeoutError) return undefined;
    throw err;
  });
}

/** The turn to make of OSD's guess on a page of this shape. */
export function chooseTurn(guess: OrientationGuess | undefined, page: { width: number; height: number }, trial = false, quarterOnly = false): Oriented['rotated'] {
  if (!guess || guess.rotate === 0 || (quarterOnly && guess.rotate === 180)) return 0;
  if (trial) return guess.confidence >= TRIAL_CONFIDENCE ? guess.rotate : 0;
  const bar =
    guess.rotate === 180 ? MIN_CONFIDENCE.halfTurn : page.width > page.height ? MIN_CONFIDENCE.quarterTurnLandscape : MIN_CONFIDENCE.quarterTurnPortrait;
  return guess.confidence >= bar ? guess.rotate : 0;
}

/**
 * Finds which way up the text is (tesseract OSD on a shrunk copy) and turns the page upright;
 * `trial`: the turn will be judged by reading the page again, so a less sure guess is taken;
 * `quarterOnly`: only a quarter turn is taken (a landscape page before any reading: its shape says
 * sideways, nothing says upside down; OSD turned a short upright receipt over at a margin of 2.5).
 */
export async function orientPage(page: PageImage, options: { signal: AbortSignal; trial?: boolean; quarterOnly?: boolean }): Promise<Oriented> {
  const guess = await guessOrientation(page, options);
  const rotated = chooseTurn(guess, page, options.trial, options.quarterOnly);
  const halfTurnDeferred = options.quarterOnly === true && guess?.rotate === 180;
  return { page: await turnPage(page, rotated), rotated, halfTurnDeferred, script: guess?.script, scriptConfidence: guess?.scriptConfidence };
}
