import { z } from 'zod';

/** GET /api/config: what the web app needs to know about its deployment at run time (no secrets). */
export const clientConfigSchema = z.object({
  /** Google Analytics 4 measurement id; null means the web app sends no analytics at all. */
  analyticsMeasurementId: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
