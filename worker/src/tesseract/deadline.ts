/**
 * `work`'s outcome, unless `signal` fires first (rejects with its reason) or `ms` pass first
 * (rejects with `late()`). A thread that dies or wedges does not always say so — tesseract.js
 * never hears of its worker thread's end, and its promises then never settle — so every wait
 * on an OCR thread has an end; the caller decides what to do with the thread that was late.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, late: () => Error, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      finish();
      reject(late());
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        finish();
        resolve(value);
      },
      (err: unknown) => {
        finish();
        reject(err);
      },
    );
  });
}

/**
 * Loading a language set takes a second or two of CPU; on a saturated host, at background
 * priority (a twentieth of a core), that is tens of seconds. The bound is for a thread that is
 * gone, so it is far above any start that is only slow.
 */
export const THREAD_START_TIMEOUT_MS = 300_000;

/** An OCR thread that did not get ready in time: the job tries again later (not the file's fault). */
export class ThreadStartTimeoutError extends Error {
  override name = 'ThreadStartTimeoutError';
  constructor(what: string, ms: number) {
    super(`${what} was not ready within ${ms} ms`);
  }
}
