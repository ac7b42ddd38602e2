import type { PipelineStep } from '@receipts/common';
import { createLogger, parseConfig } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedReceipt } from '../../../tests/support/printed-receipt.js';
import { createOcrEnginesFromConfig } from './create-ocr-engine.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { PipelineThread } from './pipeline-thread.runner.js';
import { inProcessPipeline } from './pipeline.runner.js';
import type { PipelineInput } from './receipt.pipeline.js';

const config = parseConfig({ ROLES: 'api,worker', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' });
const log = createLogger({ level: 'silent', role: 'test' });
let pipeline: PipelineThread;
let receipt: Buffer;

beforeAll(async () => {
  receipt = await printedReceipt();
  pipeline = await PipelineThread.start(config, log);
}, 60_000);
afterAll(() => pipeline?.close());

/** The receipt as the processor hands it over: a Buffer of its own (the thread may take its memory). */
const input = (bytes = receipt): PipelineInput => ({ bytes: Buffer.from(bytes), mimeType: 'image/png', currencyCode: 'MYR' });

async function runRecording(runner: Pick<PipelineThread, 'run'>, onStep: (step: PipelineStep) => void = () => undefined, signal = new AbortController().signal) {
  const steps: PipelineStep[] = [];
  const result = await runner.run(
    input(),
    null,
    async (step) => {
      steps.push(step);
      onStep(step);
    },
    signal,
  );
  return { steps, result };
}

describe('PipelineThread', () => {
  it('reads a receipt on its thread as the pipeline reads it on the caller\'s, step by step', async () => {
    const here = inProcessPipeline(createOcrEnginesFromConfig(config, 1, log));
    try {
      const [threaded, direct] = [await runRecording(pipeline), await runRecording(here)];
      expect(threaded.steps).toEqual(direct.steps);
      expect(threaded.steps).toEqual(['loaded', 'decoded', 'prepared', 'recognizing', 'recognized', 'extracted', 'validated']);
      expect(threaded.result.receipt.total).toBe(10.4);
      expect(threaded.result.receipt).toEqual(direct.result.receipt);
      expect(threaded.result.lines).toEqual(direct.result.lines);
      expect(threaded.result.pictures.every((p) => Buffer.isBuffer(p))).toBe(true);
      expect(Buffer.concat(threaded.result.pictures).equals(Buffer.concat(direct.result.pictures))).toBe(true);
      expect(pipeline.defaultEngine).toBe(here.defaultEngine);
      expect(pipeline.tesseract).toEqual(here.tesseract);
    } finally {
      await here.close();
    }
  }, 60_000);

  it("fails a file's fault as one, with its message for the user", async () => {
    const run = pipeline.run({ ...input(), bytes: Buffer.from('not a picture at all') }, null, async () => undefined, new AbortController().signal);
    await expect(run).rejects.toBeInstanceOf(UnreadableFileError);
    await expect(run).rejects.toThrow(/.+/);
  }, 60_000);

  it('stops a cancelled run where it is, and runs the next one', async () => {
    const control = new AbortController();
    const cancelled = runRecording(pipeline, (step) => step === 'decoded' && control.abort('cancelled by user'), control.signal);
    await expect(cancelled).rejects.toBeDefined();
    const again = await runRecording(pipeline);
    expect(again.result.receipt.total).toBe(10.4);
  }, 60_000);

  it("fails a run with the caller's own error when a step could not be handled", async () => {
    const gone = new Error('database gone');
    const run = pipeline.run(
      input(),
      null,
      async (step) => {
        if (step === 'prepared') throw gone;
      },
      new AbortController().signal,
    );
    await expect(run).rejects.toBe(gone);
  }, 60_000);

  it('fails the run a dying thread had, and starts a new thread for the next', async () => {
    const run = runRecording(pipeline, (step) => {
      // The thread ends mid-run, as a crash in its native code would end it.
      if (step === 'decoded') void (pipeline as unknown as { thread: { terminate(): Promise<number> } }).thread.terminate();
    });
    await expect(run).rejects.toThrow(/receipt pipeline stopped/);
    const again = await runRecording(pipeline);
    expect(again.result.receipt.total).toBe(10.4);
  }, 60_000);

  it("hands over its thread's metrics labelled with the process's role", async () => {
    const metrics = await pipeline.metrics();
    const secondOpinions = metrics.find((m) => m.name === 'receipts_vlm_second_opinions_total');
    expect(secondOpinions).toBeDefined();
    expect(metrics.some((m) => m.name === 'process_cpu_seconds_total')).toBe(false);
  });
});
