import Tesseract from 'tesseract.js';
import { TESSERACT_THREAD } from '../background-priority.js';
import type { PageLine } from './ocr-engine.js';
import { tessdataDir } from './tessdata.js';

/** Longer than any receipt page takes (a long receipt: ~10 s on a busy core). */
export const DEFAULT_PAGE_TIMEOUT_MS = 30_000;

export class TesseractTimeoutError extends Error {
  override name = 'TesseractTimeoutError';
  constructor(ms: number) {
    super(`tesseract gave up on a page after ${ms} ms`);
  }
}

export interface TesseractPage {
  lines: PageLine[];
  /** 0..1, tesseract's mean word confidence. */
  confidence: number;
}

interface PooledWorker {
  worker: Tesseract.Worker;
  langs: string;
  busy: boolean;
}

/**
 * tesseract.js workers kept across jobs. A job asks for its languages: an idle worker already
 * loaded with them is taken, else an idle one is re-initialised (a language set costs its load
 * once, not per page), so a receipt pays only for the languages chosen for it.
 */
export class TesseractPool {
  private readonly workers: PooledWorker[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly langPath: string;
  private closed = false;

  constructor(
    private readonly size: number,
    /** Every language a job may ask for (their data is linked into one folder). */
    readonly installed: readonly string[],
  ) {
    this.langPath = tessdataDir(installed);
  }

  /**
   * Lines of `image` read with `langs` (e.g. ['deu', 'eng']), in tesseract's reading order.
   * A page that takes longer than `timeoutMs` (noise it tries to read as text: a photo of a
   * table, a wall of static) rejects with TesseractTimeoutError and its worker is replaced.
   */
  async recognize(image: Buffer, langs: readonly string[], signal: AbortSignal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS): Promise<TesseractPage> {
    const entry = await this.acquire(langs.join('+'), signal);
    const job = entry.worker.recognize(image, {}, { blocks: true, text: false });
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new TesseractTimeoutError(timeoutMs)), timeoutMs);
    try {
      return pageOf((await raceAbort(job, AbortSignal.any([signal, timeout.signal]))).data);
    } finally {
      clearTimeout(timer);
      if (timeout.signal.aborted) this.discard(entry);
      // A cancelled page is finished by its worker, which goes back to the pool only then.
      else void job.then(() => this.release(entry), () => this.release(entry));
    }
  }

  private async acquire(langs: string, signal: AbortSignal): Promise<PooledWorker> {
    for (;;) {
      signal.throwIfAborted();
      if (this.closed) throw new Error('The OCR engine is closed.');
      const idle = this.workers.filter((w) => !w.busy);
      const entry = idle.find((w) => w.langs === langs) ?? idle[0];
      if (entry) {
        entry.busy = true;
        if (entry.langs !== langs) {
          try {
            await entry.worker.reinitialize(langs, Tesseract.OEM.LSTM_ONLY);
            entry.langs = langs;
          } catch (err) {
            this.release(entry);
            throw err;
          }
        }
        return entry;
      }
      if (this.workers.length < this.size) {
        const placeholder: PooledWorker = { worker: undefined as never, langs, busy: true };
        this.workers.push(placeholder);
        try {
          placeholder.worker = await Tesseract.createWorker(langs, Tesseract.OEM.LSTM_ONLY, {
            langPath: this.langPath,
            workerPath: TESSERACT_THREAD,
            gzip: true,
            cacheMethod: 'none',
            // Failures reach us as rejected jobs; the handler only keeps tesseract.js from throwing globally.
            errorHandler: () => undefined,
          });
          // Decoded pages carry no trustworthy resolution (tesseract warns and guesses on every page);
          // the clean-up brings text to the size a 300 dpi scan has.
          await placeholder.worker.setParameters({ user_defined_dpi: '300' });
        } catch (err) {
          this.workers.splice(this.workers.indexOf(placeholder), 1);
          throw err;
        }
        return placeholder;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** A worker stuck on a page is ended; the pool makes a new one when asked. */
  private discard(entry: PooledWorker): void {
    this.workers.splice(this.workers.indexOf(entry), 1);
    this.waiting.shift()?.();
    // Terminating a worker mid-page rejects only that page, which was given up already.
    entry.worker.terminate().catch(() => undefined);
  }

  private release(entry: PooledWorker): void {
    entry.busy = false;
    this.waiting.shift()?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.allSettled(this.workers.filter((w) => w.worker).map((w) => w.worker.terminate()));
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

function pageOf(page: Tesseract.Page): TesseractPage {
  const lines: PageLine[] = [];
  const words: number[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.words.map((w) => w.text).join(' ').trim();
        if (!text) continue;
        for (const w of line.words) words.push(w.confidence);
        const { x0, y0, x1, y1 } = line.bbox;
        lines.push({ text, confidence: line.confidence / 100, box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
      }
    }
  }
  const confidence = words.length ? words.reduce((a, b) => a + b, 0) / words.length / 100 : 0;
  return { lines, confidence };
}
