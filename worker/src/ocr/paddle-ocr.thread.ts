// The Paddle OCR thread (paddle-ocr.engine.ts starts it): owns the ONNX sessions and reads the
// pages it is sent. onnxruntime-node runs a session on the calling thread, a detector tile for up
// to half a second; here that holds this thread, not the event loop that answers /healthz.
import { parentPort, workerData } from 'node:worker_threads';
import type { DetectorSettings } from './paddle/db-detector.js';
import { loadPaddleModels, readPaddlePage, type PaddleModels } from './paddle/paddle-page.reader.js';
import type { OcrLine } from './paddle-ocr.engine.js';
import { lowerThisThread } from '../background-priority.js';

export interface PaddleThreadData {
  maxSide: number;
}

export type PaddleThreadRequest = { type: 'page'; id: number; image: Uint8Array } | { type: 'abort'; id: number };

export type PaddleThreadReply =
  | { type: 'done'; id: number; result: { lines: OcrLine[]; confidence: number } }
  | { type: 'failed'; id: number; message: string; stack?: string };

// Below the api's priority; onnxruntime runs on this thread (and threads it starts inherit it).
lowerThisThread();

const port = parentPort!;
const detector: DetectorSettings = { maxSide: (workerData as PaddleThreadData).maxSide };
let models: Promise<PaddleModels> | null = null;
const load = () =>
  (models ??= loadPaddleModels().catch((error: unknown) => {
    // The next page tries again; this one fails with the reason.
    models = null;
    throw error;
  }));

async function recognizePage(image: Uint8Array, signal: AbortSignal): Promise<{ lines: OcrLine[]; confidence: number }> {
  const loaded = await load();
  signal.throwIfAborted();
  return readPaddlePage(loaded, image, detector, signal);
}

/** Pages being read, by id: a cancelled one stops at its next tile or crop. */
const reading = new Map<number, AbortController>();

port.on('message', (request: PaddleThreadRequest) => {
  if (request.type === 'abort') {
    reading.get(request.id)?.abort(new Error('The page was cancelled'));
    return;
  }
  const controller = new AbortController();
  reading.set(request.id, controller);
  const reply = (message: PaddleThreadReply) => port.postMessage(message);
  recognizePage(request.image, controller.signal)
    .then(
      (result) => reply({ type: 'done', id: request.id, result }),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        reply({ type: 'failed', id: request.id, message: error.message, stack: error.stack });
      },
    )
    .finally(() => reading.delete(request.id));
});
