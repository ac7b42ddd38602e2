// The receipt pipeline's thread (pipeline-thread.runner.ts): in a process that also serves the
// api, decoding, page clean-up, recognition and extraction run here, below the api's priority.
import { parentPort, workerData } from 'node:worker_threads';
import type { PipelineStep } from '@receipts/common';
import { createLogger, labelThreadMetrics, threadMetrics } from '@receipts/infra';
import { lowerThisThread } from '../process/background-priority.js';
import { configureDecoding } from '../document/decode.sandbox.js';
import { createOcrEnginesFromConfig } from './create-ocr-engine.js';
import { asBuffer, movable } from '../process/cloned-bytes.js';
import { describeError, type FromPipelineThread, type PipelineThreadData, type ToPipelineThread } from './pipeline-thread.runner.js';
import { runPipeline } from './receipt.pipeline.js';

const { config } = workerData as PipelineThreadData;
const port = parentPort!;
const role = config.ROLES.join('+');

// The threads and processes it starts (OCR, decoders) inherit this, and lower themselves as before.
lowerThisThread();
const log = createLogger({ level: config.LOG_LEVEL, role });
labelThreadMetrics(role);
configureDecoding(config, log);
const engines = createOcrEnginesFromConfig(config, config.WORKER_CONCURRENCY, log);

/** A run under way: it waits for its step's handling by the caller, or is aborted. */
interface ThreadRun {
  control: AbortController;
  stepHandled?: (ok: boolean) => void;
}

const runs = new Map<number, ThreadRun>();

function send(message: FromPipelineThread, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

async function run(message: Extract<ToPipelineThread, { type: 'run' }>): Promise<void> {
  const { id } = message;
  const current: ThreadRun = { control: new AbortController() };
  runs.set(id, current);
  const onStep = (step: PipelineStep) =>
    new Promise<void>((resolve, reject) => {
      current.stepHandled = (ok) => (ok ? resolve() : reject(new Error(`step ${step} not handled`)));
      send({ type: 'step', id, step });
    });
  try {
    const input = { ...message.input, bytes: asBuffer(message.input.bytes) };
    const result = await runPipeline(input, engines.get(message.engine), onStep, current.control.signal);
    send({ type: 'done', id, result }, movable(result.pictures));
  } catch (err) {
    send({ type: 'failed', id, error: describeError(err) });
  } finally {
    runs.delete(id);
  }
}

port.on('message', (message: ToPipelineThread) => {
  switch (message.type) {
    case 'run':
      void run(message);
      return;
    case 'step-done':
      runs.get(message.id)?.stepHandled?.(message.ok);
      return;
    case 'abort':
      runs.get(message.id)?.control.abort(message.reason);
      return;
    case 'metrics':
      threadMetrics().then(
        (metrics) => send({ type: 'metrics', id: message.id, metrics }),
        (err: unknown) => {
          log.warn({ err }, 'pipeline metrics not gathered');
          send({ type: 'metrics', id: message.id, metrics: [] });
        },
      );
      return;
    case 'close':
      // Settles whatever each engine's closing did (allSettled): the caller terminates the thread next.
      void engines.close().then(() => send({ type: 'closed' }));
      return;
  }
});

send({ type: 'ready', defaultEngine: engines.defaultName, tesseract: engines.tesseract });
