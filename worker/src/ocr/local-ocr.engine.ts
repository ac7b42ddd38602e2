import { createRequire } from 'node:module';
import type { RecognizedDocument } from '@receipts/common';
import Tesseract from 'tesseract.js';
import type { DecodedDocument, OcrEngine } from './ocr-engine.js';

const require = createRequire(import.meta.url);

/** Where a language's traineddata sits inside its npm package (nothing is downloaded). */
function langPathOf(lang: string): string {
  return (require(`@tesseract.js-data/${lang}`) as { langPath: string }).langPath;
}

/** tesseract.js with a pool of workers, created once and reused across jobs. */
export function createLocalOcrEngine(options: { concurrency: number; langs: string[] }): OcrEngine {
  const scheduler = Tesseract.createScheduler();
  const langs = options.langs.join('+');
  const ready = Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      const worker = await Tesseract.createWorker(langs, Tesseract.OEM.LSTM_ONLY, {
        langPath: langPathOf(options.langs[0]!),
        gzip: true,
        cacheMethod: 'none',
        errorHandler: () => undefined,
      });
      scheduler.addWorker(worker);
    }),
  );

  return {
    name: 'local',
    async prepare(doc) {
      return doc;
    },
    async recognize(doc: DecodedDocument, signal: AbortSignal): Promise<RecognizedDocument> {
      await ready;
      if (doc.textLayer) return { content: doc.textLayer, documents: [{ confidence: 1, fields: {} }] };
      const texts: string[] = [];
      const confidences: number[] = [];
      for (const page of doc.pages) {
        signal.throwIfAborted();
        // On abort the caller moves on at once; the tesseract worker finishes the page in the
        // background and goes back to the pool.
        let onAbort!: () => void;
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
        });
        const result = await Promise.race([scheduler.addJob('recognize', page.image), aborted]).finally(() =>
          signal.removeEventListener('abort', onAbort),
        );
        texts.push(result.data.text);
        confidences.push(result.data.confidence / 100);
      }
      const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0;
      return { content: texts.join('\n'), documents: [{ confidence, fields: {} }] };
    },
    async close() {
      await ready.catch(() => undefined);
      await scheduler.terminate();
    },
  };
}
