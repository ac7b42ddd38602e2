import { internalErrorMessage, type ErrorCode } from '@receipts/common';
import type { ErrorRequestHandler } from 'express';
import { isServiceUnavailable, type Logger } from '@receipts/infra';

/** An error meant for the caller: leaves the api as `{ error: CODE, message }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** What the caller needs besides the message to act on it (a duplicate's earlier upload). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof HttpError) {
      res.status(err.status).json({ ...err.details, error: err.code, message: err.message });
      return;
    }
    if (isServiceUnavailable(err)) {
      (req.log ?? log).warn({ err: String(err?.message ?? err), url: req.originalUrl }, 'database or Redis unavailable');
      res.status(503).json({ error: 'SERVICE_UNAVAILABLE', message: 'The service is unavailable right now. Please try again in a minute.' });
      return;
    }
    // body-parser and similar set `status` on client errors.
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) {
      (req.log ?? log).error({ err, url: req.originalUrl }, 'unhandled error');
      res.status(500).json({ error: 'INTERNAL', message: internalErrorMessage(req.id) });
      return;
    }
    res.status(status).json({ error: 'BAD_REQUEST', message: String(err.message) });
  };
}
