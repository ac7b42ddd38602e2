import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, idempotencyKeySchema, type ErrorCode } from '@receipts/common';
import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

declare global {
  namespace Express {
    interface Request {
      /** The request's Idempotency-Key, checked, on the routes behind `idempotencyKey`. */
      idempotencyKey?: string;
    }
  }
}

/** What the document says of the Idempotency-Key header (POST /api/ocr, POST /api/export). */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Optional, 1–255 printable ASCII characters, per account for 24 hours: the same request again with the same key answers the first one again (Idempotent-Replayed: true) instead of doing it twice.';

/** The answers of a route that takes an Idempotency-Key: its first request still running, or the key used for another request. */
export const IDEMPOTENCY_ERRORS = { 409: ['CONFLICT'], 422: ['IDEMPOTENCY_KEY_REUSED'] } as const satisfies Record<number, readonly ErrorCode[]>;

/** Reads the Idempotency-Key header (optional) before the body is: a malformed one is refused at once, 400. */
export const idempotencyKey: RequestHandler = (req, _res, next) => {
  const sent = req.get(IDEMPOTENCY_KEY_HEADER);
  if (sent === undefined) return next();
  const checked = idempotencyKeySchema.safeParse(sent);
  if (!checked.success) return next(new HttpError(400, 'BAD_REQUEST', IDEMPOTENCY_MESSAGES.invalidKey));
  req.idempotencyKey = checked.data;
  next();
};
