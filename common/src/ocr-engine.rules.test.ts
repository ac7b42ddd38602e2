import { describe, expect, it } from 'vitest';
import { availableEngines, engineNameSchema } from './ocr-engine.rules.js';

describe('available OCR engines', () => {
  it.each([
    [{}, ['local']],
    [{ DOCUMENTAI_PROJECT_ID: 'p' }, ['local']],
    [{ DOCUMENTAI_PROCESSOR_ID: 'x' }, ['local']],
    [{ DOCUMENTAI_PROJECT_ID: 'p', DOCUMENTAI_PROCESSOR_ID: 'x' }, ['local', 'documentai']],
  ])('%j → %j', (settings, engines) => {
    expect(availableEngines(settings)).toEqual(engines);
  });

  it('names the engines in its message', () => {
    expect(engineNameSchema.safeParse('paddle').error?.issues[0]?.message).toBe('engine must be "local" or "documentai"');
  });
});
