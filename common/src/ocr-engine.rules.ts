import { z } from 'zod';
import { USER_MESSAGES } from './user-messages.js';

/** The OCR engines a receipt can be (re-)extracted with; every package names them from here. */
export const ENGINE_NAMES = ['local', 'documentai', 'vlm'] as const;
const quoted = ENGINE_NAMES.map((n) => `"${n}"`);
export const engineNameSchema = z.enum(ENGINE_NAMES, { message: `engine must be ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` });
export type EngineName = z.infer<typeof engineNameSchema>;

/** The configuration values that decide which engines a server can run. */
export interface EngineSettings {
  DOCUMENTAI_PROJECT_ID?: string | undefined;
  DOCUMENTAI_PROCESSOR_ID?: string | undefined;
  VLM_BASE_URL?: string | undefined;
  VLM_MODEL?: string | undefined;
}

/** The local engine always; Document AI with its project and processor; a vision model with its endpoint and model. */
export function availableEngines(settings: EngineSettings): EngineName[] {
  const configured: Record<EngineName, boolean> = {
    local: true,
    documentai: Boolean(settings.DOCUMENTAI_PROJECT_ID && settings.DOCUMENTAI_PROCESSOR_ID),
    vlm: Boolean(settings.VLM_BASE_URL && settings.VLM_MODEL),
  };
  return ENGINE_NAMES.filter((name) => configured[name]);
}

/** Each engine as the web app names it. */
export const ENGINE_LABELS: Readonly<Record<EngineName, string>> = {
  local: 'Local OCR',
  documentai: 'Google Document AI',
  vlm: 'Vision model',
};

/** The engines a server runs, its default first: the choices a re-extraction offers. */
export function engineChoices(settings: EngineSettings, defaultEngine: EngineName): EngineName[] {
  const available = availableEngines(settings);
  return [defaultEngine, ...available.filter((name) => name !== defaultEngine)];
}

/** What a user reads when asking for an engine this server does not run. */
export function engineNotConfiguredMessage(engine: EngineName): string {
  return engine === 'vlm' ? USER_MESSAGES.vlmNotConfigured : USER_MESSAGES.documentAiNotConfigured;
}
