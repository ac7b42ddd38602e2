import Tesseract from 'tesseract.js';
import { TESSERACT_THREAD } from '../process/background-priority.js';
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
  /** Unset while the worker starts. */
  worker: Tesseract.Worker | null;
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
    const job = entry.worker!.recognize(image, {}, { blocks: true, text: false });
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
        if (entry.langs !== langs) await this.whileCancellable(this.load(entry, langs), entry, signal);
        return entry;
      }
      if (this.workers.length < this.size) {
        const entry: PooledWorker = { worker: null, langs, busy: true };
        this.workers.push(entry);
        await this.whileCancellable(this.start(entry, langs), entry, signal);
        return entry;
      }
      // Woken when a place may be free, or at once when cancelled (it then leaves the queue).
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.waiting.push(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** A new worker reading `langs`; one not ready in time is ended (also if it starts after all). */
  private async start(entry: PooledWorker, langs: string): Promise<void> {
    const starting = Tesseract.createWorker(langs, TESSERACT_READING.oem, {
      langPath: this.langPath,
      workerPath: TESSERACT_THREAD,
      gzip: true,
      cacheMethod: 'none',
      // Failures reach us as rejected jobs; the handler only keeps tesseract.js from throwing globally.
      errorHandler: () => undefined,
    });
    const late = () => new ThreadStartTimeoutError(`a tesseract worker with ${langs}`, this.startTimeoutMs);
    try {
      entry.worker = await settleWithin(starting, this.startTimeoutMs, late);
      await settleWithin(readingParameters(entry.worker), this.startTimeoutMs, late);
      if (this.closed) throw new Error('The OCR engine is closed.');
    } catch (err) {
      // Ends the worker if it started (late parameters, or the pool closed meanwhile).
      this.discard(entry);
      // One that starts after all is ended rather than left running. (A failed start left nothing to end.)
      if (!entry.worker) starting.then((worker) => worker.terminate()).catch(() => undefined);
      throw err;
    }
  }

  /** Another language set into an idle worker; a worker stuck or gone meanwhile is ended. */
  private async load(entry: PooledWorker, langs: string): Promise<void> {
    const worker = entry.worker!;
    // tesseract.js starts a new tesseract instance for the languages: the parameters set before are gone.
    const loading = worker.reinitialize(langs, TESSERACT_READING.oem).then(() => readingParameters(worker));
    try {
      await settleWithin(loading, this.startTimeoutMs, () => new ThreadStartTimeoutError(`tesseract with ${langs}`, this.startTimeoutMs));
      entry.langs = langs;
    } catch (err) {
      this.discard(entry);
      throw err;
    }
  }

  /**
   * The page waits for its worker's start or language load unless it is cancelled. The load goes
   * on then, and the worker joins the pool when ready: thrown away, the next page would pay the
   * second or two of CPU again (a new worker's WebAssembly is compiled on threads at the api's
   * priority, beside its requests).
   */
  private whileCancellable(loading: Promise<void>, entry: PooledWorker, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason);
        // (A load that failed has ended its worker already.)
        loading.then(() => this.release(entry), () => undefined);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      loading.then(
        () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  /** A worker stuck on a page, or not ready in time, is ended; the pool makes a new one when asked. */
  private discard(entry: PooledWorker): void {
    const at = this.workers.indexOf(entry);
    if (at < 0) return;
    this.workers.splice(at, 1);
    this.wakeAll();
    // Terminating a worker mid-page rejects only that page, which was given up already.
    entry.worker?.terminate().catch(() => undefined);
  }

  private release(entry: PooledWorker): void {
    entry.busy = false;
    this.wakeAll();
  }

  /**
   * Every waiting page looks again, in the order they came. Waking only the first lost the place
   * when that page had been cancelled meanwhile: it left, and the page after it waited for ever
   * beside an idle worker (a job stuck active until restart).
   */
  private wakeAll(): void {
    for (const wake of this.waiting.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await Promise.allSettled(this.workers.map((w) => w.worker?.terminate()));
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

/**
 * How every page is read (TESSERACT_READING), set on a worker after each start or language
 * load. Without the resolution, tesseract took a page made from raw pixels (1 pixel/mm in its
 * header) as 25 dpi, warned, and worked at 70.
 */
function readingParameters(worker: Tesseract.Worker): Promise<unknown> {
  return worker.setParameters({
    tessedit_pageseg_mode: String(TESSERACT_READING.psm) as Tesseract.PSM,
    user_defined_dpi: String(TESSERACT_READING.dpi),
  });
}
