import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, idempotencyKeySchema } from '@receipts/common';
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

/** Reads the Idempotency-Key header (optional) before the body is: a malformed one is refused at once, 400. */
export const idempotencyKey: RequestHandler = (req, _res, next) => {
  const sent = req.get(IDEMPOTENCY_KEY_HEADER);
  if (sent === undefined) return next();
  const checked = idempotencyKeySchema.safeParse(sent);
  if (!checked.success) return next(new HttpError(400, 'BAD_REQUEST', IDEMPOTENCY_MESSAGES.invalidKey));
  req.idempotencyKey = checked.data;
  next();
};
