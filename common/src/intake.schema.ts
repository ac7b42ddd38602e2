import { z } from 'zod';

/** GET/POST/DELETE /api/intake: the account's private intake address, when this deployment receives mail. */
export const intakeAddressViewSchema = z.object({
  /** Whether this deployment receives mail at all (INTAKE_DOMAIN and a way in are configured). */
  available: z.boolean(),
  /** The account's address; null when it has none (never made, or turned off). */
  address: z.string().nullable(),
});
export type IntakeAddressView = z.infer<typeof intakeAddressViewSchema>;
