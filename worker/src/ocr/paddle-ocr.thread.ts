// The Paddle OCR thread (paddle-ocr.engine.ts starts it): owns the ONNX sessions and reads the
// pages it is sent. onnxruntime-node runs a session on the calling thread, a detector tile for up
// to half a second; here that holds this thread, not the event loop that answers /healthz.
import { parentPort, workerData } from 'node:worker_threads';
import type { DetectorSettings } from './paddle/db-detector.js';
import { loadPaddleModels, readPaddlePage, type PaddleModels } from './paddle/paddle-page.reader.js';
import type { OcrLine, PaddleThreadData, PaddleThreadReply, PaddleThreadRequest } from './paddle/paddle.types.js';
import { lowerThisThread } from '../process/background-priority.js';

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
const reading = new Map<number, { controller: AbortController; done: Promise<void> }>();

/**
 * Leaves onnxruntime and sharp before the thread ends: ended (terminate, process.exit) while a
 * run is in native code, their bindings abort the whole process. The page in hand stops at its
 * next tile or crop, the sessions are released, and with its port closed the thread exits.
 */
async function stop(): Promise<void> {
  for (const page of reading.values()) page.controller.abort(new Error('The Paddle OCR engine was closed'));
  await Promise.allSettled([...reading.values()].map((page) => page.done));
  const loaded = await models?.catch(() => null);
  if (loaded) await Promise.allSettled([loaded.detector.release(), loaded.recognizer.release()]);
  port.close();
}

port.on('message', (request: PaddleThreadRequest) => {
  if (request.type === 'stop') {
    void stop();
    return;
  }
  if (request.type === 'abort') {
    reading.get(request.id)?.controller.abort(new Error('The page was cancelled'));
    return;
  }
  const controller = new AbortController();
  const reply = (message: PaddleThreadReply) => port.postMessage(message);
  const done = recognizePage(request.image, controller.signal)
    .then(
      (result) => reply({ type: 'done', id: request.id, result }),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        reply({ type: 'failed', id: request.id, message: error.message, stack: error.stack });
      },
    )
    .finally(() => reading.delete(request.id));
  reading.set(request.id, { controller, done });
});
