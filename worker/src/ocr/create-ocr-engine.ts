import { availableEngines, USER_MESSAGES, type EngineName } from '@receipts/common';
import type { Config } from '@receipts/infra';
import { createDocumentAiEngine, type DocumentAiOptions } from './documentai-ocr.engine.js';
import { createLocalOcrEngine, type PaddleMode } from './local-ocr.engine.js';
import { UnreadableFileError, type OcrEngine } from './ocr-engine.js';

export interface OcrEngineOptions {
  engine: EngineName;
  /** Jobs that may recognise at once (the local engine keeps this many tesseract workers). */
  concurrency: number;
  langs?: string[];
  /** PaddleOCR in the local engine (see LocalOcrOptions). */
  paddle?: PaddleMode;
  /** Page clean-up before the local engine reads (on unless a benchmark measures without it). */
  cleanUp?: boolean;
  documentAi?: DocumentAiOptions;
}

export function createOcrEngine(options: OcrEngineOptions): OcrEngine {
  if (options.engine === 'documentai') {
    if (!options.documentAi) throw new Error('The Document AI engine needs its project, location and processor.');
    return createDocumentAiEngine(options.documentAi);
  }
  return createLocalOcrEngine({ concurrency: options.concurrency, langs: options.langs ?? ['eng'], paddle: options.paddle, cleanUp: options.cleanUp });
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

function localOptions(config: Config): Pick<OcrEngineOptions, 'langs' | 'paddle'> {
  return { langs: config.OCR_LANGS, paddle: config.OCR_PADDLE };
}

/** The engine the configuration names, for `concurrency` jobs at once. */
export function createOcrEngineFromConfig(config: Config, concurrency: number): OcrEngine {
  return createOcrEngine({ engine: config.ocrEngine, concurrency, ...localOptions(config), documentAi: documentAiOptions(config) });
}

/** Every engine a worker may be asked for: the configured default, and others when a re-extraction names them. */
export interface OcrEngines {
  readonly defaultName: EngineName;
  /** The named engine (the default for null), made on first use and kept. */
  get(name: EngineName | null): OcrEngine;
  close(): Promise<void>;
}

export function createOcrEnginesFromConfig(config: Config, concurrency: number): OcrEngines {
  const made = new Map<EngineName, OcrEngine>();
  const documentAi = documentAiOptions(config);
  // The default engine is ready before the first job, as it always was.
  made.set(config.ocrEngine, createOcrEngine({ engine: config.ocrEngine, concurrency, ...localOptions(config), documentAi }));
  return {
    defaultName: config.ocrEngine,
    get(name) {
      const engine = name ?? config.ocrEngine;
      let ready = made.get(engine);
      if (!ready) {
        // Not the file's fault, but just as final: retrying cannot configure the server.
        if (!availableEngines(config).includes(engine)) throw new UnreadableFileError(USER_MESSAGES.documentAiNotConfigured);
        ready = createOcrEngine({ engine, concurrency, ...localOptions(config), documentAi });
        made.set(engine, ready);
      }
      return ready;
    },
    async close() {
      await Promise.allSettled([...made.values()].map((e) => e.close()));
    },
  };
}
