import type { Worker } from 'node:worker_threads';
import type { EngineName, PipelineStep } from '@receipts/common';
import { addThreadMetrics, startModuleThread, type Config, type Logger, type ThreadMetrics } from '@receipts/infra';
import { asBuffer, movable } from '../process/cloned-bytes.js';
import type { TesseractChoice } from '../tesseract/tesseract.choice.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { EngineError } from '../ocr/ocr-engine.js';
import type { PipelineRunner } from './pipeline.runner.js';
import type { PipelineInput, PipelineResult } from './receipt.pipeline.js';

export interface PipelineThreadData {
  config: Config;
}

/** An error as it crosses the thread: enough to rebuild the classes the processor tells apart. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  /** EngineError's. */
  final?: boolean;
  detail?: string;
}

export type ToPipelineThread =
  | { type: 'run'; id: number; input: PipelineInput; engine: EngineName | null }
  /** The caller has handled a step (its progress written, or `ok: false`: the run must stop). */
  | { type: 'step-done'; id: number; ok: boolean }
  | { type: 'abort'; id: number; reason: unknown }
  | { type: 'metrics'; id: number }
  | { type: 'close' };

export type FromPipelineThread =
  | { type: 'ready'; defaultEngine: EngineName; tesseract: TesseractChoice }
  | { type: 'step'; id: number; step: PipelineStep }
  | { type: 'done'; id: number; result: PipelineResult }
  | { type: 'failed'; id: number; error: ThreadError }
  | { type: 'metrics'; id: number; metrics: ThreadMetrics }
  | { type: 'closed' };

export function describeError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const engine = err instanceof EngineError ? { final: err.final, detail: err.detail } : {};
  return { name: err.name, message: err.message, stack: err.stack, ...engine };
}

/** The error the thread described, as the class the processor acts on (a file's fault, an engine's). */
function rebuildError(error: ThreadError): Error {
  const rebuilt =
    error.name === 'UnreadableFileError'
      ? new UnreadableFileError(error.message)
      : error.name === 'EngineError'
        ? new EngineError(error.message, error.final ?? false, error.detail ?? '')
        : Object.assign(new Error(error.message), { name: error.name });
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

/**
 * The pipeline thread's heap bound. What it holds is tens of megabytes (a page's pixels are
 * outside the heap, decoding is in processes of its own); past this a run gone wrong ends the
 * thread, failing the runs it had, rather than the process and the api in it.
 */
const PIPELINE_HEAP_MB = 1024;

interface Run {
  onStep(step: PipelineStep): Promise<void>;
  resolve(result: PipelineResult): void;
  reject(err: Error): void;
  /** Why a step failed on this side (a cancellation, a lost database): the run's outcome, rather than the thread's echo of it. */
  stepFailed?: { reason: unknown };
}

/**
 * The receipt pipeline on a thread of its own (pipeline.thread.ts), for a worker sharing its
 * process with an api (the embedded mode). Decoding, page clean-up, recognition's bookkeeping and
 * extraction are tens of milliseconds of JavaScript a receipt, in pieces of up to 80 ms: on the
 * event loop that answers HTTP they stalled uploads. The thread runs below the api's priority
 * and owns the OCR engines; this side writes progress and results as before. A step is a
 * message here and the thread waits for it to be handled, as runPipeline waits for onStep. A
 * thread that dies fails the runs it had (they are tried again as any failed attempt) and the
 * next run starts a new one.
 */
export class PipelineThread implements PipelineRunner {
  defaultEngine: EngineName;
  tesseract: TesseractChoice = { backend: 'wasm', reason: 'not started' };
  private thread: Worker;
  private readonly runs = new Map<number, Run>();
  private readonly metricsAsked = new Map<number, { resolve(metrics: ThreadMetrics): void; reject(err: Error): void }>();
  private nextId = 1;
  private dead: Error | null = null;
  private closing = false;
  /** Settles when the current thread has made its engines, or failed to. */
  private started!: Promise<void>;
  private closed: (() => void) | null = null;
  /** Takes this thread's metrics out of the process's scrape (addThreadMetrics), on close. */
  private readonly forgetMetrics: () => void;

  private constructor(
    private readonly data: PipelineThreadData,
    private readonly log: Logger,
  ) {
    this.defaultEngine = data.config.ocrEngine;
    this.thread = this.start();
    this.forgetMetrics = addThreadMetrics(() => this.metrics());
  }

  /** Starts the thread and waits until its engines are made (a configuration they refuse fails here). */
  static async start(config: Config, log: Logger): Promise<PipelineThread> {
    const pipeline = new PipelineThread({ config }, log);
    try {
      await pipeline.started;
    } catch (err) {
      pipeline.closing = true;
      pipeline.forgetMetrics();
      await pipeline.thread.terminate();
      throw err;
    }
    return pipeline;
  }

  async run(input: PipelineInput, engine: EngineName | null, onStep: (step: PipelineStep) => Promise<void>, signal: AbortSignal): Promise<PipelineResult> {
    signal.throwIfAborted();
    if (this.dead) {
      if (this.closing) throw this.dead;
      this.log.warn({ err: this.dead.message }, 'pipeline thread started again');
      this.thread = this.start();
      await this.started;
    }
    const id = this.nextId++;
    const onAbort = () => this.post({ type: 'abort', id, reason: signal.reason });
    try {
      return await new Promise<PipelineResult>((resolve, reject) => {
        this.runs.set(id, { onStep, resolve, reject });
        this.thread.ref();
        signal.addEventListener('abort', onAbort, { once: true });
        // The bytes move to the thread: the caller has no more use for them.
        this.post({ type: 'run', id, input, engine }, movable([input.bytes]));
      });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.runs.delete(id);
      if (this.runs.size === 0) this.thread.unref();
    }
  }

  /** The thread's own metrics (the vision model's requests and second opinions), for the process's scrape. */
  metrics(): Promise<ThreadMetrics> {
    if (this.dead) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.metricsAsked.set(id, { resolve, reject });
      this.post({ type: 'metrics', id });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.forgetMetrics();
    if (!this.dead) {
      this.thread.ref();
      // The engines' own closing (their threads and processes) runs there; then the thread goes.
      await new Promise<void>((resolve) => {
        this.closed = resolve;
        this.post({ type: 'close' });
      });
    }
    await this.thread.terminate();
  }

  private start(): Worker {
    this.dead = null;
    const thread = startModuleThread(import.meta.url, 'pipeline.thread', { workerData: this.data, resourceLimits: { maxOldGenerationSizeMb: PIPELINE_HEAP_MB } });
    let ready!: () => void;
    let failed!: (err: Error) => void;
    this.started = new Promise((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    // Awaited by start and by the first run after a restart, which report its failure.
    this.started.catch(() => undefined);
    thread.on('message', (message: FromPipelineThread) => {
      if (message.type === 'ready') {
        this.defaultEngine = message.defaultEngine;
        this.tesseract = message.tesseract;
        // An idle pipeline does not keep the process alive; a run under way does.
        if (this.runs.size === 0) thread.unref();
        ready();
      } else if (message.type === 'closed') this.closed?.();
      else this.answer(message);
    });
    const died = (err: Error) => {
      if (thread !== this.thread) return;
      if (!this.dead && !this.closing) this.log.error({ err: err.message }, 'pipeline thread stopped');
      this.dead ??= err;
      failed(err);
      this.closed?.();
      for (const run of this.runs.values()) run.reject(err);
      for (const asked of this.metricsAsked.values()) asked.reject(err);
      this.metricsAsked.clear();
    };
    thread.on('error', (err) => died(new Error(`The receipt pipeline stopped: ${err.message}`)));
    thread.on('exit', (code) => died(new Error(`The receipt pipeline stopped (its thread exited with code ${code}).`)));
    return thread;
  }

  private answer(message: Exclude<FromPipelineThread, { type: 'ready' | 'closed' }>): void {
    if (message.type === 'metrics') {
      this.metricsAsked.get(message.id)?.resolve(message.metrics);
      this.metricsAsked.delete(message.id);
      return;
    }
    const run = this.runs.get(message.id);
    if (!run) return;
    if (message.type === 'step') {
      run.onStep(message.step).then(
        () => this.post({ type: 'step-done', id: message.id, ok: true }),
        (err: unknown) => {
          run.stepFailed = { reason: err };
          this.post({ type: 'step-done', id: message.id, ok: false });
        },
      );
    } else if (message.type === 'done') {
      const { result } = message;
      run.resolve({ ...result, pictures: result.pictures.map(asBuffer) });
    } else {
      run.reject(run.stepFailed ? (run.stepFailed.reason as Error) : rebuildError(message.error));
    }
  }

  private post(message: ToPipelineThread, transfer: ArrayBuffer[] = []): void {
    this.thread.postMessage(message, transfer);
  }
}
