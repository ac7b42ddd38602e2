import { z } from 'zod';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_CREDENTIALS',
  'INVALID_TOKEN',
  'FILE_MISSING',
  'FILE_EMPTY',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
  'NOT_FOUND',
  'NOT_CANCELLABLE',
  'NOTHING_TO_EXPORT',
  'CONFLICT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'EMAIL_NOT_VERIFIED',
  'QUOTA_EXCEEDED',
  /** The same file is among the owner's uploads already; nothing was written or charged (POST /api/ocr with ifDuplicate=ask). */
  'DUPLICATE_FILE',
  /** An Idempotency-Key sent again with a different request (422): the key names its first request only. */
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error leaves the api in this shape. */
export const apiErrorSchema = z.object({ error: z.enum(ERROR_CODES), message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A route's answer that is only words for the person: signed out, a link on its way, a password changed. */
export const messageAnswerSchema = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswerSchema>;
