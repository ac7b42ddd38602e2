import { describe, expect, it } from 'vitest';
import { availableEngines, engineChoices, engineNameSchema, engineNotConfiguredMessage } from './ocr-engine.rules.js';

describe('available OCR engines', () => {
  it.each([
    [{}, ['local']],
    [{ DOCUMENTAI_PROJECT_ID: 'p' }, ['local']],
    [{ DOCUMENTAI_PROCESSOR_ID: 'x' }, ['local']],
    [{ DOCUMENTAI_PROJECT_ID: 'p', DOCUMENTAI_PROCESSOR_ID: 'x' }, ['local', 'documentai']],
    [{ VLM_BASE_URL: 'http://ollama:11434/v1' }, ['local']],
    [{ VLM_MODEL: 'qwen2.5vl:7b' }, ['local']],
    [{ VLM_BASE_URL: 'http://ollama:11434/v1', VLM_MODEL: 'qwen2.5vl:7b' }, ['local', 'vlm']],
    [{ DOCUMENTAI_PROJECT_ID: 'p', DOCUMENTAI_PROCESSOR_ID: 'x', VLM_BASE_URL: 'http://ollama:11434/v1', VLM_MODEL: 'm' }, ['local', 'documentai', 'vlm']],
  ])('%j → %j', (settings, engines) => {
    expect(availableEngines(settings)).toEqual(engines);
  });

  it('offers the default engine first, then the others configured', () => {
    const vlm = { VLM_BASE_URL: 'http://ollama:11434/v1', VLM_MODEL: 'm' };
    expect(engineChoices({}, 'local')).toEqual(['local']);
    expect(engineChoices(vlm, 'local')).toEqual(['local', 'vlm']);
    expect(engineChoices(vlm, 'vlm')).toEqual(['vlm', 'local']);
  });

  it('names the engines in its message', () => {
    expect(engineNameSchema.safeParse('paddle').error?.issues[0]?.message).toBe('engine must be "local", "documentai" or "vlm"');
  });

  it.each([
    ['documentai', 'Document AI is not configured on this server.'],
    ['vlm', 'The vision model is not configured on this server.'],
  ] as const)('says %s is not configured', (engine, message) => {
    expect(engineNotConfiguredMessage(engine)).toBe(message);
  });
});
