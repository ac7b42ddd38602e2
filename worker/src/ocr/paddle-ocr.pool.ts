import { createPaddleOcr, type PaddleOcr } from './paddle-ocr.engine.js';

/**
 * PaddleOCR for `size` job slots: one reader (a thread with its own sessions, one page at a time)
 * per slot, started as pages need them. With PaddleOCR reading every page first, one thread for
 * the process would make a worker's job slots wait on each other.
 */
export function createPaddlePool(size: number, create: () => PaddleOcr = createPaddleOcr): PaddleOcr {
  const readers: Array<{ ocr: PaddleOcr; inFlight: number }> = [];
  /** The reader with the fewest pages in hand; a new one while the pool is not full and every reader is busy. */
  const pick = () => {
    const idle = readers.reduce<(typeof readers)[number] | undefined>((best, r) => (!best || r.inFlight < best.inFlight ? r : best), undefined);
    if (idle && (idle.inFlight === 0 || readers.length >= size)) return idle;
    const started = { ocr: create(), inFlight: 0 };
    readers.push(started);
    return started;
  };
  return {
    async recognizePage(image, signal) {
      const reader = pick();
      reader.inFlight++;
      try {
        return await reader.ocr.recognizePage(image, signal);
      } finally {
        reader.inFlight--;
      }
    },
    async close() {
      const closing = readers.splice(0).map((r) => r.ocr.close());
      await Promise.all(closing);
    },
  };
}
