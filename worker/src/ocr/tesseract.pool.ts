import Tesseract from 'tesseract.js';
import { TESSERACT_THREAD } from '../background-priority.js';
import { tessdataDir } from './tessdata.js';
import {
  DEFAULT_PAGE_TIMEOUT_MS,
  TESSERACT_READING,
  tesseractPage,
  TesseractTimeoutError,
  type TesseractLineWords,
  type TesseractPage,
  type TesseractReader,
} from './tesseract.reader.js';

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
export class TesseractPool implements TesseractReader {
  readonly backend = 'wasm';
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

  /** A page past its time ends its worker; the pool makes a new one when asked. */
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
            await entry.worker.reinitialize(langs, TESSERACT_READING.oem);
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
          placeholder.worker = await Tesseract.createWorker(langs, TESSERACT_READING.oem, {
            langPath: this.langPath,
            workerPath: TESSERACT_THREAD,
            gzip: true,
            cacheMethod: 'none',
            // Failures reach us as rejected jobs; the handler only keeps tesseract.js from throwing globally.
            errorHandler: () => undefined,
          });
          await placeholder.worker.setParameters({
            tessedit_pageseg_mode: String(TESSERACT_READING.psm) as Tesseract.PSM,
            user_defined_dpi: String(TESSERACT_READING.dpi),
          });
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
  const lines = (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map(
        (line): TesseractLineWords => ({
          words: line.words,
          confidence: line.confidence,
          box: { x: line.bbox.x0, y: line.bbox.y0, width: line.bbox.x1 - line.bbox.x0, height: line.bbox.y1 - line.bbox.y0 },
        }),
      ),
    ),
  );
  return tesseractPage(lines);
}
