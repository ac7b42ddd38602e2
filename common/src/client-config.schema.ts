import { z } from 'zod';
import { engineNameSchema } from './ocr-engine.rules.js';

/** GET /api/config: what the web app needs to know about its deployment at run time (no secrets). */
export const clientConfigSchema = z.object({
  /** Google Analytics 4 measurement id; null means the web app sends no analytics at all. */
  analyticsMeasurementId: z.string().nullable(),
  /** The engines a receipt can be re-extracted with here (only those configured), the default first. */
  engines: z.array(engineNameSchema),
  /** The currencies an export can convert totals into (the operator's rates file); empty without one. */
  convertibleCurrencies: z.array(z.string()),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
