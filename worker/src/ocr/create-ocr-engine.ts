import type { Config } from '@receipts/infra';
import { createDocumentAiEngine, type DocumentAiOptions } from './documentai-ocr.engine.js';
import { createLocalOcrEngine } from './local-ocr.engine.js';
import type { OcrEngine } from './ocr-engine.js';

export interface OcrEngineOptions {
  engine: 'local' | 'documentai';
  /** Jobs that may recognise at once (the local engine keeps this many tesseract workers). */
  concurrency: number;
  langs?: string[];
  documentAi?: DocumentAiOptions;
}

export function createOcrEngine(options: OcrEngineOptions): OcrEngine {
  if (options.engine === 'documentai') {
    if (!options.documentAi) throw new Error('The Document AI engine needs its project, location and processor.');
    return createDocumentAiEngine(options.documentAi);
  }
  return createLocalOcrEngine({ concurrency: options.concurrency, langs: options.langs ?? ['eng'] });
}

/** The engine the configuration names, for `concurrency` jobs at once. */
export function createOcrEngineFromConfig(config: Config, concurrency: number): OcrEngine {
  return createOcrEngine({
    engine: config.ocrEngine,
    concurrency,
    langs: config.OCR_LANGS,
    documentAi:
      config.DOCUMENTAI_PROJECT_ID && config.DOCUMENTAI_PROCESSOR_ID
        ? {
            projectId: config.DOCUMENTAI_PROJECT_ID,
            location: config.DOCUMENTAI_LOCATION,
            processorId: config.DOCUMENTAI_PROCESSOR_ID,
            apiEndpoint: config.DOCUMENTAI_ENDPOINT,
          }
        : undefined,
  });
}
