import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './http-error.js';
import { answersOf, jsonAnswerProblem, otherAnswerProblem, route, specOf, type RouteSpec } from './route-spec.js';

const item = z.object({ id: z.string(), total: z.number() });
const spec: RouteSpec = {
  summary: 'An item',
  tag: 'items',
  scope: 'receipts:read',
  caller: 'anyone',
  params: z.object({ id: z.string().min(2, 'Too short.') }),
  answers: { 200: item, 204: null },
  errors: { 404: ['NOT_FOUND'] },
};
const fileSpec: RouteSpec = { summary: 'A file', tag: 'items', scope: 'export', caller: 'account', answers: { 200: { media: ['text/csv'], description: 'CSV' } } };

/** Runs a route's declaration on a request from a caller with this token (none: a session): the error it passed on, if any. */
function call(declared: RouteSpec, token: Request['token'], params: Record<string, string> = { id: 'ab' }) {
  const req = { params, query: {}, token } as unknown as Request;
  let passed: unknown = 'not called';
  route(declared)(req, {} as Response, (err?: unknown) => {
    passed = err;
  });
  return passed instanceof HttpError ? { status: passed.status, error: passed.code, message: passed.message } : passed;
}

const token = (...scopes: Array<'receipts:read' | 'receipts:write' | 'export'>) => ({ id: 't', userId: 'u', scopes });

describe('route', () => {
  it.each([
    ['a session', spec, undefined, undefined],
    ['a token with the scope', spec, token('receipts:read'), undefined],
    ['a token with the scope among others', spec, token('export', 'receipts:read'), undefined],
    ['any token on a public route', { ...spec, scope: 'public' as const }, token(), undefined],
    ['a session on a route closed to tokens', { ...spec, scope: null }, undefined, undefined],
  ])('lets %s through', (_who, declared, caller, passed) => {
    expect(call(declared, caller)).toBe(passed);
  });

  it.each([
    ['a token without the scope', spec, token('receipts:write', 'export'), 'This access token does not have the receipts:read scope this route needs.'],
    ['a token with no scopes', spec, token(), 'This access token does not have the receipts:read scope this route needs.'],
    ['any token on a route closed to tokens', { ...spec, scope: null }, token('receipts:read', 'receipts:write', 'export'), 'Access tokens cannot call this route. Sign in to the web app to use it.'],
  ])('refuses %s with 403', (_who, declared, caller, message) => {
    expect(call(declared, caller)).toEqual({ status: 403, error: 'FORBIDDEN', message });
  });

  it('checks the parts after the caller: a refused token learns nothing of its input', () => {
    expect(call(spec, token(), { id: 'x' })).toMatchObject({ status: 403 });
    expect(call(spec, undefined, { id: 'x' })).toEqual({ status: 400, error: 'VALIDATION_FAILED', message: 'Too short.' });
  });

  it('is found again by the document from its handler', () => {
    expect(specOf(route(spec))).toBe(spec);
    expect(specOf(() => undefined)).toBeUndefined();
  });
});

describe('answersOf', () => {
  it('gathers the route’s answers, its own errors, its caller’s and the common ones', () => {
    const all = answersOf(spec);
    expect([...all.keys()].sort()).toEqual([200, 204, 400, 401, 403, 404, 429, 500, 503]);
    expect(all.get(400)).toEqual(['VALIDATION_FAILED', 'BAD_REQUEST']);
    expect(all.get(429)).toEqual(['RATE_LIMITED']);
  });

  it('gives no token errors to a route closed to tokens for anyone', () => {
    const all = answersOf({ summary: 's', tag: 't', scope: null, caller: 'anyone', answers: { 200: item } });
    expect([...all.keys()].sort()).toEqual([200, 400, 403, 404, 500, 503]);
    expect(all.get(404)).toEqual(['NOT_FOUND']);
    expect(all.get(400)).toEqual(['BAD_REQUEST']);
  });
});

describe('jsonAnswerProblem', () => {
  it.each([
    ['a body of the schema', 200, { id: 'a', total: 1 }, null],
    ['a documented error', 404, { error: 'NOT_FOUND', message: 'm' }, null],
    ['a common error', 503, { error: 'SERVICE_UNAVAILABLE', message: 'm' }, null],
    ['an undocumented status', 201, { id: 'a', total: 1 }, 'status 201 is not documented'],
    ['a body off the schema', 200, { id: 'a', total: '1' }, 'the body does not match the documented schema: total Invalid input: expected number, received string'],
    ['an error code of another status', 404, { error: 'CONFLICT', message: 'm' }, 'error CONFLICT is not documented for status 404'],
    ['JSON where nothing is documented', 204, {}, 'status 204 is documented without a JSON body'],
  ])('%s', (_what, status, body, problem) => {
    expect(jsonAnswerProblem(spec, status, body)).toBe(problem);
  });
});

describe('otherAnswerProblem', () => {
  it.each([
    ['the documented media type with a charset', fileSpec, 200, 'text/csv; charset=utf-8', null],
    ['another media type', fileSpec, 200, 'application/zip', 'media type application/zip is not documented for status 200'],
    ['nothing where nothing is documented', spec, 204, undefined, null],
    ['an undocumented status', spec, 302, undefined, 'status 302 is not documented'],
  ])('%s', (_what, declared, status, type, problem) => {
    expect(otherAnswerProblem(declared, status, type)).toBe(problem);
  });
});
