import type { PageImage, PagePreparation, PreparedPage } from '../page/page.types.js';
import { closeOrientationDetector } from '../tesseract/orientation.detector.js';
import { evenIllumination } from './illumination.step.js';
import { guessOrientation, orientPage, turnPage } from './orientation.step.js';
import { cropToReceipt } from './receipt-crop.step.js';

/**
 * A decoded page made ready for OCR: cropped to the receipt (photos), lighting evened out (uneven
 * pages only) and turned upright. The crop comes first so the other steps measure the receipt,
 * not the table it lies on. Text scaling (text-scale.step.ts) is left out too: it lost fields on
 * the tune half and made pages up to 3× the pixels to read. So is perspective correction
 * (perspective.step.ts, `straightenReceipt` in place of the crop): on the world set's tune half it
 * warped 6 of 21 photos and lost a total and a merchant of 26 receipts read by tesseract, gaining
 * none; PaddleOCR gained one date on those 6 (holdout: 7 of 17 warped, tesseract lost a total and a
 * date, PaddleOCR a total, a date and a merchant). Measured by bench/prepare-page.bench.ts perspective.
 *
 * `crop: false` keeps the whole frame (to read again when a crop may have cut the receipt).
 * `orient`: ask OSD which way up the page is — always (the default), never, or only when the page
 * is wider than tall (receipts are long, so such a page is probably sideways); OSD is a fifth of
 * a scan's reading time, and a caller can ask later (`orientPrepared`) when the reading is poor.
 */
export async function preparePage(
  page: PageImage,
  options: { signal: AbortSignal; orient?: 'always' | 'never' | 'landscape'; crop?: boolean },
): Promise<PreparedPage> {
  const crop = options.crop === false ? { page, cropped: false } : await cropToReceipt(page);
  options.signal.throwIfAborted();
  const lit = await evenIllumination(crop.page);
  options.signal.throwIfAborted();
  const orient = options.orient ?? 'always';
  const prepared: PreparedPage = { page: lit.page, rotated: 0, skew: 0, cropped: crop.cropped, oriented: false };
  if (orient === 'always') return orientPrepared(prepared, options);
  return orient === 'landscape' && lit.page.width > lit.page.height ? orientPrepared(prepared, { ...options, quarterOnly: true }) : prepared;
}

/** A prepared page turned upright by OSD (once: a page OSD has seen is returned as it is); `trial` as for orientPage. */
export async function orientPrepared(prepared: PreparedPage, options: { signal: AbortSignal; trial?: boolean; quarterOnly?: boolean }): Promise<PreparedPage> {
  if (prepared.oriented) return prepared;
  const oriented = await orientPage(prepared.page, options);
  return {
    ...prepared,
    page: oriented.page,
    rotated: (prepared.rotated + oriented.rotated) % 360,
    // A half turn left for later is asked again if the reading is poor.
    oriented: !oriented.halfTurnDeferred,
    script: oriented.script,
    scriptConfidence: oriented.scriptConfidence,
  };
}

/** The clean-up as the step the local OCR engine is given (pipeline/create-ocr-engine.ts hands it over). */
export const pagePreparation: PagePreparation = {
  prepare: preparePage,
  orient: orientPrepared,
  turn: turnPage,
  script: async (page, options) => (await guessOrientation(page, options))?.script,
  close: closeOrientationDetector,
};
