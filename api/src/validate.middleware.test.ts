import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './http-error.js';
import { failingAs, idParams, validate, type RequestParts } from './validate.middleware.js';

const ID = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const body = z.object({ name: z.string({ error: 'Name it.' }).trim().min(1, 'Name it.') });
const query = z.object({ page: z.coerce.number().int().min(1, 'Pages start at 1.').default(1) });

/** Runs the middleware on a request of these parts: the error it passed on, or the parts it left. */
function run(parts: RequestParts, request: { body?: unknown; query?: unknown; params?: unknown }) {
  const req = { ...request } as unknown as Request;
  let passed: unknown = 'not called';
  validate(parts)(req, {} as Response, (err?: unknown) => {
    passed = err;
  });
  if (passed instanceof HttpError) return { status: passed.status, error: passed.code, message: passed.message };
  expect(passed).toBeUndefined();
  return { body: req.body, query: req.query, params: req.params };
}

describe('validate', () => {
  it.each([
    ['no JSON body at all', { body }, {}, { status: 400, error: 'VALIDATION_FAILED', message: 'Name it.' }],
    ['a body field blank once trimmed', { body }, { body: { name: '   ' } }, { status: 400, error: 'VALIDATION_FAILED', message: 'Name it.' }],
    ['a query out of range', { query }, { query: { page: '0' } }, { status: 400, error: 'VALIDATION_FAILED', message: 'Pages start at 1.' }],
    ['an id that is no uuid', { params: idParams }, { params: { id: '42' } }, { status: 400, error: 'BAD_REQUEST', message: 'Not a valid id.' }],
    ['a part answered with its own code', { body: failingAs('BAD_REQUEST', z.object({ n: z.string('Say n.') })) }, { body: {} }, { status: 400, error: 'BAD_REQUEST', message: 'Say n.' }],
    ['body before params, as written', { body, params: idParams }, { body: {}, params: { id: 'x' } }, { status: 400, error: 'VALIDATION_FAILED', message: 'Name it.' }],
    ['params before body, as written', { params: idParams, body }, { body: {}, params: { id: 'x' } }, { status: 400, error: 'BAD_REQUEST', message: 'Not a valid id.' }],
  ])('refuses %s', (_what, parts, request, answer) => {
    expect(run(parts, request)).toEqual(answer);
  });

  it.each([
    ['a trimmed body', { body }, { body: { name: ' Lunch ', extra: 1 } }, { body: { name: 'Lunch' } }],
    ['a coerced query with its default', { query }, { query: { page: '3' } }, { query: { page: 3 } }],
    ['an absent query field defaulted', { query }, { query: {} }, { query: { page: 1 } }],
    ['a uuid id', { params: idParams }, { params: { id: ID } }, { params: { id: ID } }],
  ])('passes %s on parsed', (_what, parts, request, parsed) => {
    expect(run(parts, request)).toMatchObject(parsed);
  });

  it('leaves parts it does not check as they came', () => {
    expect(run({ body }, { body: { name: 'a' }, query: { wait: '1' }, params: { id: 'x' } })).toEqual({ body: { name: 'a' }, query: { wait: '1' }, params: { id: 'x' } });
  });

  it('replaces a query Express 5 gives as a getter only', () => {
    const req = Object.create(
      Object.defineProperty({}, 'query', { get: () => ({ page: '2' }), configurable: true, enumerable: true }),
    ) as Parameters<ReturnType<typeof validate<{ query: typeof query }>>>[0];
    let passed: unknown = 'not called';
    validate({ query })(req, {} as Response, (err?: unknown) => {
      passed = err;
    });
    expect(passed).toBeUndefined();
    expect(req.query).toEqual({ page: 2 });
  });
});
