import { availableEngines, engineNotConfiguredMessage, type EngineName } from '@receipts/common';
import type { Config, Logger } from '@receipts/infra';
import { pagePreparation } from '../document/prepare-page.js';
import { createDocumentAiEngine, type DocumentAiOptions } from '../ocr/documentai-ocr.engine.js';
import { createLocalOcrEngine, type PaddleMode } from '../ocr/local-ocr.engine.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import type { OcrEngine } from '../ocr/ocr-engine.js';
import { chooseTesseract, type TesseractChoice } from '../tesseract/tesseract.choice.js';
import type { TesseractBackend } from '../tesseract/tesseract.reader.js';
import { createVlmEngine, type VlmEngineOptions } from '../ocr/vlm-ocr.engine.js';

export interface OcrEngineOptions {
  engine: EngineName;
  /** Jobs that may recognise at once (the local engine keeps this many tesseract workers). */
  concurrency: number;
  langs?: string[];
  /** Where the local engine's tesseract runs (see LocalOcrOptions); tesseract.js when not given. */
  tesseract?: TesseractBackend;
  /** PaddleOCR in the local engine (see LocalOcrOptions). */
  paddle?: PaddleMode;
  /** Page clean-up before the local engine reads (on unless a benchmark measures without it). */
  cleanUp?: boolean;
  documentAi?: DocumentAiOptions;
  vlm?: VlmEngineOptions;
  /** The local engine asks the vision model (`vlm`) for a second opinion on receipts it reads poorly. */
  vlmSecondOpinion?: boolean;
}

export function createOcrEngine(options: OcrEngineOptions): OcrEngine {
  if (options.engine === 'documentai') {
    if (!options.documentAi) throw new Error('The Document AI engine needs its project, location and processor.');
    return createDocumentAiEngine(options.documentAi);
  }
  if (options.engine === 'vlm') {
    if (!options.vlm) throw new Error('The vision model engine needs its endpoint and model.');
    return createVlmEngine(options.vlm);
  }
  if (options.vlmSecondOpinion && !options.vlm) throw new Error('A vision model second opinion needs its endpoint and model.');
  const secondOpinion = options.vlmSecondOpinion && options.vlm ? { engine: createVlmEngine(options.vlm), log: options.vlm.log } : undefined;
  return createLocalOcrEngine({
    concurrency: options.concurrency,
    langs: options.langs ?? ['eng'],
    tesseract: options.tesseract,
    paddle: options.paddle,
    preparation: pagePreparation,
    cleanUp: options.cleanUp,
    secondOpinion,
  });
}

function documentAiOptions(config: Config): DocumentAiOptions | undefined {
  return config.DOCUMENTAI_PROJECT_ID && config.DOCUMENTAI_PROCESSOR_ID
    ? {
        projectId: config.DOCUMENTAI_PROJECT_ID,
        location: config.DOCUMENTAI_LOCATION,
        processorId: config.DOCUMENTAI_PROCESSOR_ID,
        apiEndpoint: config.DOCUMENTAI_ENDPOINT,
      }
    : undefined;
}

/** The vision model's settings, when the configuration names one. */
export function vlmOptions(config: Config, log: Logger): VlmEngineOptions | undefined {
  if (!config.VLM_BASE_URL || !config.VLM_MODEL) return undefined;
  return {
    baseUrl: config.VLM_BASE_URL,
    model: config.VLM_MODEL,
    apiKey: config.VLM_API_KEY,
    timeoutMs: config.VLM_TIMEOUT_MS,
    retries: config.VLM_RETRIES,
    concurrency: config.VLM_CONCURRENCY,
    stream: config.VLM_STREAM,
    maxImagePixels: config.VLM_MAX_IMAGE_PIXELS,
    responseFormat: config.VLM_RESPONSE_FORMAT,
    pricePerMTok: { input: config.VLM_PRICE_INPUT_PER_MTOK, output: config.VLM_PRICE_OUTPUT_PER_MTOK },
    log,
  };
}

function configuredOptions(config: Config, tesseract: TesseractChoice, log: Logger): Omit<OcrEngineOptions, 'engine' | 'concurrency'> {
  return {
    langs: config.OCR_LANGS,
    paddle: config.OCR_PADDLE,
    tesseract: tesseract.backend,
    documentAi: documentAiOptions(config),
    vlm: vlmOptions(config, log),
    vlmSecondOpinion: config.VLM_SECOND_OPINION,
  };
}

/** The engine the configuration names, for `concurrency` jobs at once. */
export function createOcrEngineFromConfig(config: Config, concurrency: number, log: Logger): OcrEngine {
  const tesseract = chooseTesseract(config.OCR_TESSERACT);
  return createOcrEngine({ engine: config.ocrEngine, concurrency, ...configuredOptions(config, tesseract, log) });
}

/** Every engine a worker may be asked for: the configured default, and others when a re-extraction names them. */
export interface OcrEngines {
  readonly defaultName: EngineName;
  /** Where the local engine's tesseract runs. */
  readonly tesseract: TesseractChoice;
  /** The named engine (the default for null), made on first use and kept. */
  get(name: EngineName | null): OcrEngine;
  close(): Promise<void>;
}

export function createOcrEnginesFromConfig(config: Config, concurrency: number, log: Logger): OcrEngines {
  const made = new Map<EngineName, OcrEngine>();
  const tesseract = chooseTesseract(config.OCR_TESSERACT);
  const options = configuredOptions(config, tesseract, log);
  // The default engine is ready before the first job, as it always was.
  made.set(config.ocrEngine, createOcrEngine({ engine: config.ocrEngine, concurrency, ...options }));
  return {
    defaultName: config.ocrEngine,
    tesseract,
    get(name) {
      const engine = name ?? config.ocrEngine;
      let ready = made.get(engine);
      if (!ready) {
        // Not the file's fault, but just as final: retrying cannot configure the server.
        if (!availableEngines(config).includes(engine)) throw new UnreadableFileError(engineNotConfiguredMessage(engine));
        ready = createOcrEngine({ engine, concurrency, ...options });
        made.set(engine, ready);
      }
      return ready;
    },
    async close() {
      await Promise.allSettled([...made.values()].map((e) => e.close()));
    },
  };
}
