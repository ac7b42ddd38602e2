import Tesseract from 'tesseract.js';
import { TESSERACT_THREAD } from '../background-priority.js';
import { settleWithin, THREAD_START_TIMEOUT_MS, ThreadStartTimeoutError } from './deadline.js';
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
    /** How long a worker may take to start or to load another language set. */
    private readonly startTimeoutMs = THREAD_START_TIMEOUT_MS,
  ) {
    this.langPath = tessdataDir(installed);
  }

  /** A page past its time ends its worker; the pool makes a new one when asked. */
  async recognize(image: Buffer, langs: readonly string[], signal: AbortSignal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS): Promise<TesseractPage> {
    const entry = await this.acquire(langs.join('+'), signal);
    const job = entry.worker.recognize(image, {}, { blocks: true, text: false });
    let late = false;
    const giveUp = () => {
      late = true;
      return new TesseractTimeoutError(timeoutMs);
    };
    try {
      return pageOf((await settleWithin(job, timeoutMs, giveUp, signal)).data);
    } finally {
      if (late) this.discard(entry);
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
          const loading = entry.worker.reinitialize(langs, TESSERACT_READING.oem);
          try {
            await settleWithin(loading, this.startTimeoutMs, () => new ThreadStartTimeoutError(`tesseract with ${langs}`, this.startTimeoutMs), signal);
            entry.langs = langs;
          } catch (err) {
            // Late: the worker is stuck or gone. Cancelled: it is still loading, so it is done with.
            this.discard(entry);
            throw err;
          }
        }
        return entry;
      }
      if (this.workers.length < this.size) {
        const placeholder: PooledWorker = { worker: undefined as never, langs, busy: true };
        this.workers.push(placeholder);
        const starting = Tesseract.createWorker(langs, TESSERACT_READING.oem, {
          langPath: this.langPath,
          workerPath: TESSERACT_THREAD,
          gzip: true,
          cacheMethod: 'none',
          // Failures reach us as rejected jobs; the handler only keeps tesseract.js from throwing globally.
          errorHandler: () => undefined,
        });
        try {
          const late = () => new ThreadStartTimeoutError(`a tesseract worker with ${langs}`, this.startTimeoutMs);
          placeholder.worker = await settleWithin(starting, this.startTimeoutMs, late, signal);
          const parameters = placeholder.worker.setParameters({
            tessedit_pageseg_mode: String(TESSERACT_READING.psm) as Tesseract.PSM,
            user_defined_dpi: String(TESSERACT_READING.dpi),
          });
          await settleWithin(parameters, this.startTimeoutMs, late, signal);
        } catch (err) {
          this.workers.splice(this.workers.indexOf(placeholder), 1);
          // Its place is free again for a page that waits for one.
          this.waiting.shift()?.();
          // One that starts after all, or half-started, is ended rather than left running.
          // (A start that failed left nothing to end.)
          starting.then((worker) => worker.terminate()).catch(() => undefined);
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
