import type { EngineName, PipelineStep } from '@receipts/common';
import type { TesseractChoice } from '../tesseract/tesseract.choice.js';
import type { OcrEngines } from './create-ocr-engine.js';
import { runPipeline, type PipelineInput, type PipelineResult } from './receipt.pipeline.js';

/**
 * Where a worker runs its receipts' pipelines: on its own event loop (a worker-only process,
 * inProcessPipeline) or on a thread of their own beside an api (PipelineThread). The processor
 * sees the same calls either way.
 */
export interface PipelineRunner {
  /** The engine an upload that names none is read with. */
  readonly defaultEngine: EngineName;
  /** Where the local engine's tesseract runs, for the start-up log line. */
  readonly tesseract: TesseractChoice;
  /** runPipeline with the engine `engine` names (the default for null). */
  run(input: PipelineInput, engine: EngineName | null, onStep: (step: PipelineStep) => Promise<void>, signal: AbortSignal): Promise<PipelineResult>;
  close(): Promise<void>;
}

/** The pipeline on the calling thread, with `engines`. */
export function inProcessPipeline(engines: OcrEngines): PipelineRunner {
  return {
    defaultEngine: engines.defaultName,
    tesseract: engines.tesseract,
    async run(input, engine, onStep, signal) {
      return runPipeline(input, engines.get(engine), onStep, signal);
    },
    close: () => engines.close(),
  };
}
