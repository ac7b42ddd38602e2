import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '@receipts/infra';
import type { OcrLine, PaddleThreadData, PaddleThreadReply, PaddleThreadRequest } from './paddle/paddle.types.js';

/** PaddleOCR PP-OCRv4 (detection + recognition) on onnxruntime, for pages tesseract reads poorly. */
export interface PaddleOcr {
  /** Lines top to bottom; `confidence` is their mean weighted by length (0 when nothing is read). */
  recognizePage(image: Buffer, signal: AbortSignal): Promise<{ lines: OcrLine[]; confidence: number }>;
  /** Releases the models; a later page loads them again. */
  close(): Promise<void>;
}

interface Page {
  id: number;
  image: Uint8Array<ArrayBuffer>;
  resolve(result: { lines: OcrLine[]; confidence: number }): void;
  reject(err: unknown): void;
}

/**
 * Longer than any page takes, the models' first load included (~3 CPU-s; several times that on a
 * saturated host, where the thread runs at background priority).
 */
export const PADDLE_PAGE_TIMEOUT_MS = 90_000;

/**
 * How long a thread told to stop may take to leave its tile or crop (a detector tile is up to half
 * a second) before it is ended outright, for a thread that never comes back.
 */
const STOP_GRACE_MS = 10_000;

/** Threads' exits, for stopping one that may have ended already. */
const exits = new WeakMap<Worker, Promise<void>>();

/**
 * Ends a thread once it is out of native code: terminated mid-run, onnxruntime's binding aborts
 * the whole process ("terminate called after throwing an instance of 'Napi::Error'"), and so
 * does a process exiting while it runs. Told to stop, the thread finishes its tile or crop,
 * releases its sessions and exits (paddle-ocr.thread.ts).
 */
function stopThread(worker: Worker): Promise<void> {
  worker.ref();
  worker.postMessage({ type: 'stop' } satisfies PaddleThreadRequest);
  const ended = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
  return exits.get(worker)!.finally(() => clearTimeout(ended));
}

export class PaddleTimeoutError extends Error {
  override name = 'PaddleTimeoutError';
  constructor(ms: number) {
    super(`PaddleOCR gave up on a page after ${ms} ms`);
  }
}

/** Each instance's thread, for tests that end it mid-page. */
const threads = new WeakMap<PaddleOcr, () => Worker | null>();
export const paddleThreadOf = (ocr: PaddleOcr): Worker | null => threads.get(ocr)?.() ?? null;

/**
 * Reads pages in a worker thread of its own, started on the first page, one page at a time in
 * the order they come. The thread keeps the sessions (one per model) until `close`; a thread
 * that dies fails the page it was reading, and the next page starts a new one. A page not read
 * within `pageTimeoutMs` of reaching the thread fails with PaddleTimeoutError and ends the thread
 * (wedged, or crawling through a page no receipt needs), so no page waits forever behind it.
 */
export function createPaddleOcr(options: { maxSide?: number; pageTimeoutMs?: number } = {}): PaddleOcr {
  const data: PaddleThreadData = { maxSide: options.maxSide ?? 960 };
  const pageTimeoutMs = options.pageTimeoutMs ?? PADDLE_PAGE_TIMEOUT_MS;
  let thread: Worker | null = null;
  const queue: Page[] = [];
  /** The page the thread is reading; its caller may have gone (cancelled), the thread is busy still. */
  let reading: { id: number; page: Page | null; timer: NodeJS.Timeout } | null = null;
  let nextId = 1;

  /** The thread is done with the page it was reading (answered, died or was ended). */
  function finishReading(): { id: number; page: Page | null } | null {
    const was = reading;
    if (was) clearTimeout(was.timer);
    reading = null;
    return was;
  }

  function start(): Worker {
    const worker = startModuleThread(import.meta.url, 'paddle-ocr.thread', { workerData: data });
    exits.set(worker, new Promise((resolve) => worker.once('exit', () => resolve())));
    worker.on('message', (reply: PaddleThreadReply) => {
      if (thread !== worker) return; // closed, or ended for being late, while the page was read
      const was = finishReading();
      const page = was?.id === reply.id ? was.page : null;
      if (reply.type === 'done') page?.resolve(reply.result);
      else {
        const error = new Error(reply.message);
        if (reply.stack) error.stack = reply.stack;
        page?.reject(error);
      }
      dispatch();
    });
    const died = (error: Error) => {
      if (thread !== worker) return; // closed, or already handled ('error' comes before 'exit')
      thread = null;
      finishReading()?.page?.reject(error);
      dispatch();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`The Paddle OCR thread exited with code ${code}`)));
    return worker;
  }

  function dispatch(): void {
    if (reading) return;
    const page = queue.shift();
    if (!page) {
      // An idle thread does not keep the process alive, as idle sessions did not.
      thread?.unref();
      return;
    }
    thread ??= start();
    thread.ref();
    const reader = thread;
    const timer = setTimeout(() => {
      if (thread !== reader) return;
      thread = null;
      finishReading()?.page?.reject(new PaddleTimeoutError(pageTimeoutMs));
      // Its sessions go with it; the next page loads them again in a new thread.
      void stopThread(reader);
      dispatch();
    }, pageTimeoutMs);
    reading = { id: page.id, page, timer };
    thread.postMessage({ type: 'page', id: page.id, image: page.image } satisfies PaddleThreadRequest, [page.image.buffer]);
  }

  const ocr: PaddleOcr = {
    async recognizePage(image, signal) {
      signal.throwIfAborted();
      return new Promise((resolve, reject) => {
        // A copy of its own: the caller may reuse its buffer, and the copy's memory moves to the thread.
        const page: Page = { id: nextId++, image: new Uint8Array(image), resolve, reject };
        const onAbort = () => {
          reject(signal.reason);
          const at = queue.indexOf(page);
          if (at >= 0) queue.splice(at, 1);
          else if (reading?.page === page) {
            // The thread stops at its next tile or crop; killing it would cost the sessions.
            reading.page = null;
            thread?.postMessage({ type: 'abort', id: page.id } satisfies PaddleThreadRequest);
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const settle = () => signal.removeEventListener('abort', onAbort);
        page.resolve = (result) => (settle(), resolve(result));
        page.reject = (err) => (settle(), reject(err));
        queue.push(page);
        dispatch();
      });
    },
    async close() {
      const worker = thread;
      thread = null;
      const closed = new Error('The Paddle OCR engine was closed');
      finishReading()?.page?.reject(closed);
      for (const page of queue.splice(0)) page.reject(closed);
      if (worker) await stopThread(worker);
    },
  };
  threads.set(ocr, () => thread);
  return ocr;
}
