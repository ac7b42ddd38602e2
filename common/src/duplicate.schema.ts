import { z } from 'zod';

/** Why an upload is flagged: the very same file, or a receipt with the same merchant, date and total. */
export const DUPLICATE_REASONS = ['same-file', 'same-receipt'] as const;
export const duplicateReasonSchema = z.enum(DUPLICATE_REASONS);
export type DuplicateReason = z.infer<typeof duplicateReasonSchema>;

/** The earlier upload an upload probably repeats. */
export const duplicateOfSchema = z.object({
  uploadId: z.uuid(),
  filename: z.string(),
  reason: duplicateReasonSchema,
});
export type DuplicateOf = z.infer<typeof duplicateOfSchema>;
