import { z } from 'zod';
import { duplicateOfSchema } from './duplicate.schema.js';
import { laneSchema } from './lane.js';
import { pipelineStepSchema } from './progress.js';
import { receiptViewSchema } from './receipt.schema.js';
import { uploadApprovalSchema } from './approval.rule.js';

export const UPLOAD_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const uploadStatusSchema = z.enum(UPLOAD_STATUSES);
export type UploadStatus = z.infer<typeof uploadStatusSchema>;

export const FINAL_STATUSES: readonly UploadStatus[] = ['completed', 'failed', 'cancelled'];
export function isFinal(status: UploadStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export const uploadViewSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  status: uploadStatusSchema,
  progress: z.number().int().min(0).max(100),
  step: pipelineStepSchema.nullable(),
  lane: laneSchema,
  error: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  receipt: receiptViewSchema.optional(),
  /** Set when this upload probably repeats an earlier one of the same owner (kept, never dropped). */
  duplicateOf: duplicateOfSchema.optional(),
  /** An account's upload: where its receipt stands in the submit → approve step. */
  approval: uploadApprovalSchema.optional(),
});
export type UploadView = z.infer<typeof uploadViewSchema>;

/** 202 answer of POST /api/ocr. */
export const uploadAcceptedSchema = z.object({ id: z.uuid(), status: z.literal('queued'), lane: laneSchema });
export type UploadAccepted = z.infer<typeof uploadAcceptedSchema>;

/** Multipart fields of POST /api/ocr besides `file`. */
export const uploadFieldsSchema = z.object({
  currencyCode: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'currencyCode must be a three-letter ISO 4217 code')
    .transform((c) => c.toUpperCase())
    .optional(),
  /**
   * Not in the spec: `ask` refuses a file the owner uploaded before (409 DUPLICATE_FILE, naming
   * it) before anything is read or charged, for the page to ask; `upload` (the default, as the
   * spec's clients send nothing) reads it again and flags it a possible duplicate.
   */
  ifDuplicate: z.enum(['ask', 'upload'], { message: 'ifDuplicate is ask or upload' }).default('upload'),
});

/** The 409 DUPLICATE_FILE answer: the error, and the upload of the same file the owner has. */
export const duplicateFileErrorSchema = z.object({
  error: z.literal('DUPLICATE_FILE'),
  message: z.string(),
  duplicateOf: z.object({ uploadId: z.string(), filename: z.string(), uploadedAt: z.string() }),
});
export type DuplicateFileError = z.infer<typeof duplicateFileErrorSchema>;
