import { z } from 'zod';

/** The OCR engines a receipt can be (re-)extracted with; every package names them from here. */
export const ENGINE_NAMES = ['local', 'documentai'] as const;
export const engineNameSchema = z.enum(ENGINE_NAMES, { message: `engine must be ${ENGINE_NAMES.map((n) => `"${n}"`).join(' or ')}` });
export type EngineName = z.infer<typeof engineNameSchema>;

/** The configuration values that decide which engines a server can run. */
export interface EngineSettings {
  DOCUMENTAI_PROJECT_ID?: string | undefined;
  DOCUMENTAI_PROCESSOR_ID?: string | undefined;
}

/** The local engine always; Document AI only with both its project and its processor. */
export function availableEngines(settings: EngineSettings): EngineName[] {
  const documentAi = Boolean(settings.DOCUMENTAI_PROJECT_ID && settings.DOCUMENTAI_PROCESSOR_ID);
  return ENGINE_NAMES.filter((name) => name !== 'documentai' || documentAi);
}
