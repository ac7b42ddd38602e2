import { createRequire } from 'node:module';
import Tesseract from 'tesseract.js';
import { TESSERACT_THREAD } from '../process/background-priority.js';
import { settleWithin, THREAD_START_TIMEOUT_MS, ThreadStartTimeoutError } from './deadline.js';
import { DEFAULT_PAGE_TIMEOUT_MS, TesseractTimeoutError } from './tesseract.reader.js';

const require = createRequire(import.meta.url);

/** What tesseract's orientation and script detection (OSD) makes of a page. */
export interface OrientationGuess {
  /** Clockwise degrees to turn the image so its text reads upright: 0, 90, 180 or 270. */
  rotate: 0 | 90 | 180 | 270;
  /** Tesseract's orientation confidence (a margin over the runner-up; above ~2 is a clear call). */
  confidence: number;
  /** The script the text is in ("Latin", "Japanese", "Han", …), when OSD found one. */
  script?: string;
  scriptConfidence?: number;
}

let osdWorker: Promise<Tesseract.Worker> | undefined;

/** One OSD worker per process, created on first use and reused: loading the model costs ~0.5 s. */
function worker(): Promise<Tesseract.Worker> {
  osdWorker ??= Tesseract.createWorker('osd', Tesseract.OEM.TESSERACT_ONLY, {
    langPath: (require('@tesseract.js-data/osd') as { langPath: string }).langPath,
    workerPath: TESSERACT_THREAD,
    cacheMethod: 'none',
    gzip: true,
    errorHandler: (err: unknown) => console.error('osd worker:', err),
  }).catch((err: unknown) => {
    // A failed start must not stick: the next call tries again.
    osdWorker = undefined;
    throw err;
  });
  return osdWorker;
}

/**
 * Tesseract's OSD on an encoded image (PNG or JPEG). Resolves undefined when OSD finds too
 * little text to decide (tesseract returns no result then). Rejects with TesseractTimeoutError
 * past `timeoutMs`, ending the worker (stuck on the image, or its thread gone): the next call
 * starts a new one.
 */
export async function detectOrientation(image: Buffer, signal: AbortSignal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS): Promise<OrientationGuess | undefined> {
  const starting = worker();
  const osd = await settleWithin(starting, THREAD_START_TIMEOUT_MS, () => new ThreadStartTimeoutError('the OSD worker', THREAD_START_TIMEOUT_MS), signal).catch(
    (err: unknown) => {
      if (err instanceof ThreadStartTimeoutError) retire(starting);
      throw err;
    },
  );
  const { data } = await settleWithin(osd.detect(image), timeoutMs, () => new TesseractTimeoutError(timeoutMs), signal).catch((err: unknown) => {
    if (err instanceof TesseractTimeoutError) retire(starting);
    throw err;
  });
  if (data.orientation_degrees == null) return undefined;
  // tesseract.js's orientation_degrees is already the clockwise turn that makes the text upright
  // (checked by turning an upright receipt 90° clockwise: it answers 270).
  const rotate = (data.orientation_degrees % 360) as OrientationGuess['rotate'];
  return {
    rotate,
    confidence: data.orientation_confidence ?? 0,
    script: data.script ?? undefined,
    scriptConfidence: data.script_confidence ?? undefined,
  };
}

/** Ends a worker that was late; other questions waiting on it reach their own deadlines. */
function retire(late: Promise<Tesseract.Worker>): void {
  if (osdWorker === late) osdWorker = undefined;
  // (A start that failed left nothing to end.)
  late.then((w) => w.terminate()).catch(() => undefined);
}

/** Ends the OSD worker (tests and scripts; the worker process keeps it for its lifetime). */
export async function closeOrientationDetector(): Promise<void> {
  const pending = osdWorker;
  osdWorker = undefined;
  if (pending) await (await pending).terminate();
}
