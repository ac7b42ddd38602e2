import type { ErrorCode } from '@receipts/common';
import type { Request, RequestHandler } from 'express';
import { z, type ZodType } from 'zod';
import { HttpError } from './http-error.js';

/** What a route checks of a request, each part a zod schema. */
export interface RequestParts {
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
}

export type Checked<S, Unchecked> = S extends ZodType ? z.output<S> : Unchecked;

/** A part whose failure is a malformed request rather than a form's invalid field: answered with its own code. */
const failureCodes = z.registry<{ code: ErrorCode }>();

/** Answers a failure of `schema` with `code` instead of VALIDATION_FAILED. */
export function failingAs<S extends ZodType>(code: ErrorCode, schema: S): S {
  failureCodes.add(schema, { code });
  return schema;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A route's `:id`: anything but a uuid is a malformed request (and never reaches the database). */
export const uuidParam = z.string().regex(UUID, 'Not a valid id.');

/** The params of a route with only an `:id`. */
export const idParams = failingAs('BAD_REQUEST', z.object({ id: uuidParam }));

/**
 * Checks the request's parts in the order `parts` names them and puts what each schema made of
 * its part in its place, so the route's handler reads typed, parsed input from `req.body`,
 * `req.query` and `req.params`. The first problem becomes the message (the forms show one at a
 * time), with status 400 and VALIDATION_FAILED unless the part says otherwise (`failingAs`).
 */
export function validate<P extends RequestParts>(
  parts: P,
): RequestHandler<Checked<P['params'], Request['params']>, unknown, Checked<P['body'], unknown>, Checked<P['query'], Request['query']>> {
  const checks = Object.entries(parts) as Array<[keyof RequestParts, ZodType]>;
  return (req, _res, next) => {
    for (const [part, schema] of checks) {
      // No JSON body leaves req.body undefined: the schema then says which field is missing.
      const result = schema.safeParse(req[part] ?? {});
      if (!result.success) return next(new HttpError(400, failureCodes.get(schema)?.code ?? 'VALIDATION_FAILED', result.error.issues[0]!.message));
      // Express 5 gives req.query as a getter: the parsed value shadows it on this request.
      Object.defineProperty(req, part, { value: result.data, writable: true, configurable: true, enumerable: true });
    }
    next();
  };
}
