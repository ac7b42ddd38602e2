import { API_TOKEN_MESSAGES, WORKSPACE_MESSAGES, workspaceAllows, type ErrorCode, type TokenScope, type WorkspaceAction } from '@receipts/common';
import type { Request, RequestHandler, Response } from 'express';
import type { ZodType } from 'zod';
import { HttpError } from './http-error.js';
import { validate, type Checked, type RequestParts } from './validate.middleware.js';

/** A body other than JSON: the media types a route answers with (a file, an image, a page). */
export interface FileAnswer {
  media: readonly string[];
  description: string;
}

/** What a route answers with one status: JSON of a schema, a file, or nothing (`null`). */
export type Answer = ZodType | FileAnswer | null;

/**
 * Who may call a route besides a browser session: a personal access token with this scope, any
 * token (`public`: what anyone may read, such as the plans or this API's document), or (`null`)
 * no token at all. Sign-in itself is the route's own middleware (requireUser and the like).
 */
export type RouteScope = TokenScope | 'public' | null;

/** One route as the API document describes it and as the route checks its requests. */
export interface RouteSpec extends RequestParts {
  summary: string;
  description?: string;
  /** The section of the API reference it is listed in. */
  tag: string;
  scope: RouteScope;
  /**
   * What a signed-in caller's role in the workspace they act in must allow (workspaceAllows);
   * none: the route is not about a workspace's data, or scopes it itself.
   */
  workspace?: WorkspaceAction;
  /** Who may call it without a token: anyone (anonymous visitors too), signed-in accounts, or nobody (a signed request, e.g. Stripe's). */
  caller: 'anyone' | 'account' | 'signature';
  /** How the request body arrives when it is not JSON (the upload's multipart form), for the document. */
  bodyMedia?: 'multipart/form-data' | 'raw';
  /** Headers the route reads, for the document: name → description. */
  headers?: Record<string, string>;
  /** Handlers that must run before the parts are checked (the upload's form parser). */
  receive?: RequestHandler[];
  /** Successful answers by status. */
  answers: Record<number, Answer>;
  /** The error answers the route itself gives, by status: their codes, or a schema when the error carries more than code and message. */
  errors?: Record<number, readonly ErrorCode[] | ZodType>;
}

const specs = new WeakMap<RequestHandler, RouteSpec>();

/** The spec a route handler was made from, for the document (undefined for any other handler). */
export const specOf = (handler: unknown): RouteSpec | undefined => specs.get(handler as RequestHandler);

/** Errors every route can answer besides its own: a malformed request, the service down, a bug. */
export const COMMON_ERRORS: Record<number, readonly ErrorCode[]> = {
  400: ['BAD_REQUEST'],
  500: ['INTERNAL'],
  503: ['SERVICE_UNAVAILABLE'],
};

/** Errors of whoever calls: no or a bad sign-in or token, a refused token, too many requests. */
export function callerErrors(spec: Pick<RouteSpec, 'scope' | 'caller'>): Record<number, readonly ErrorCode[]> {
  const errors: Record<number, ErrorCode[]> = { 403: ['FORBIDDEN'] };
  if (spec.caller === 'account' || spec.scope) errors[401] = ['UNAUTHENTICATED'];
  // A request naming a workspace the account is not in (X-Workspace-Id).
  if (spec.caller !== 'signature') errors[404] = ['NOT_FOUND'];
  if (spec.scope && spec.scope !== 'public') errors[429] = ['RATE_LIMITED'];
  return errors;
}

/** Every status a route may answer with, and for errors the codes it may carry. */
export function answersOf(spec: RouteSpec): Map<number, Answer | readonly ErrorCode[] | ZodType> {
  const all = new Map<number, Answer | readonly ErrorCode[] | ZodType>();
  for (const [status, answer] of Object.entries(spec.answers)) all.set(Number(status), answer);
  const addErrors = (errors: Record<number, readonly ErrorCode[] | ZodType>) => {
    for (const [key, value] of Object.entries(errors)) {
      const status = Number(key);
      const before = all.get(status);
      // Codes of one status gather from the route, the caller and the common errors; a schema stays as declared.
      if (Array.isArray(before) && Array.isArray(value)) all.set(status, [...new Set([...before, ...value])]);
      else if (before === undefined) all.set(status, value);
    }
  };
  addErrors(spec.errors ?? {});
  addErrors(callerErrors(spec));
  if (spec.body || spec.query || spec.params) addErrors({ 400: ['VALIDATION_FAILED'] });
  addErrors(COMMON_ERRORS);
  return all;
}

/** Whether a declared answer is a file (not JSON, not nothing). */
export const isFileAnswer = (answer: unknown): answer is FileAnswer => typeof answer === 'object' && answer !== null && 'media' in answer;

/** What is wrong with answering `body` (JSON) with `status`, by the spec; null when it is as documented. */
export function jsonAnswerProblem(spec: RouteSpec, status: number, body: unknown): string | null {
  const declared = answersOf(spec).get(status);
  if (declared === undefined) return `status ${status} is not documented`;
  if (declared === null || isFileAnswer(declared)) return `status ${status} is documented without a JSON body`;
  if (Array.isArray(declared)) {
    const code = (body as { error?: unknown })?.error;
    return declared.includes(code as ErrorCode) ? null : `error ${String(code)} is not documented for status ${status}`;
  }
  const parsed = (declared as ZodType).safeParse(body);
  return parsed.success ? null : `the body does not match the documented schema: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`;
}

/** What is wrong with a finished answer that was not JSON (a file, a page, nothing); null when it is as documented. */
export function otherAnswerProblem(spec: RouteSpec, status: number, contentType: string | undefined): string | null {
  const declared = answersOf(spec).get(status);
  if (declared === undefined) return `status ${status} is not documented`;
  if (declared === null) return null;
  if (isFileAnswer(declared)) {
    const media = contentType?.split(';')[0]?.trim();
    return media && declared.media.includes(media) ? null : `media type ${media ?? 'none'} is not documented for status ${status}`;
  }
  return null;
}

/**
 * Answers that did not match their route's spec while answers were checked (`checkAnswers`):
 * the route tests fail on any. JSON answers are replaced by a 500 on the spot; others are
 * already on their way when they can be checked, so they are only recorded here.
 */
export const answerViolations: string[] = [];
let checking = false;

/** Checks every answer against its route's spec from now on (the tests do; production does not). */
export function checkAnswers(on: boolean): void {
  checking = on;
}

function watchAnswers(spec: RouteSpec, req: Request, res: Response): void {
  const where = `${req.method} ${req.baseUrl}${req.route?.path ?? req.path}`;
  let sentJson = false;
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    sentJson = true;
    // Checked as it goes on the wire: a Date is its ISO string there, as the schema says.
    const problem = jsonAnswerProblem(spec, res.statusCode, body === undefined ? body : JSON.parse(JSON.stringify(body)));
    if (!problem) return json(body);
    answerViolations.push(`${where}: ${problem}`);
    req.log?.error({ where, problem }, 'answer not in the API document');
    return json.call(res.status(500), { error: 'INTERNAL', message: `Answer not in the API document (${where}: ${problem}).` });
  };
  res.on('finish', () => {
    if (sentJson) return;
    const problem = otherAnswerProblem(spec, res.statusCode, res.get('Content-Type'));
    if (problem) {
      answerViolations.push(`${where}: ${problem}`);
      req.log?.error({ where, problem }, 'answer not in the API document');
    }
  });
}

/** A token's request to a route it may not call: no scope names tokens, or the token lacks it. */
function tokenRefusal(scope: RouteScope, token: Request['token']): HttpError | null {
  if (!token) return null;
  if (!scope) return new HttpError(403, 'FORBIDDEN', API_TOKEN_MESSAGES.routeClosedToTokens);
  if (scope !== 'public' && !token.scopes.includes(scope)) return new HttpError(403, 'FORBIDDEN', API_TOKEN_MESSAGES.missingScope(scope));
  return null;
}

/** A signed-in caller whose role in the workspace does not allow the route's action; anonymous callers have no workspace. */
function workspaceRefusal(action: WorkspaceAction | undefined, owner: Request['owner'] | undefined): HttpError | null {
  const workspace = owner?.workspace;
  if (!action || !workspace) return null;
  return workspaceAllows(workspace.role, action, workspace) ? null : new HttpError(403, 'FORBIDDEN', WORKSPACE_MESSAGES.roleForbids);
}

/** Runs `handlers` one after another as one handler, stopping at the first error. */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * A route's declaration, first among its handlers: what the API document says of it, the token
 * scope it opens to (none: tokens are refused), its request parts checked as `validate` does,
 * and, while answers are checked, its answers held to what it declares.
 */
export function route<S extends RouteSpec>(
  spec: S,
): RequestHandler<Checked<S['params'], Request['params']>, unknown, Checked<S['body'], unknown>, Checked<S['query'], Request['query']>> {
  // In the order the spec names them, as `validate` checks them: the first problem is the message.
  const parts: RequestParts = {};
  for (const key of Object.keys(spec)) if ((key === 'params' || key === 'query' || key === 'body') && spec[key]) parts[key] = spec[key];
  const rest = inSequence([...(spec.receive ?? []), validate(parts) as RequestHandler]);
  const handler: RequestHandler = (req, res, next) => {
    if (checking) watchAnswers(spec, req, res);
    const refused = tokenRefusal(spec.scope, req.token) ?? workspaceRefusal(spec.workspace, req.owner);
    if (refused) return next(refused);
    rest(req, res, next);
  };
  specs.set(handler, spec);
  return handler as unknown as ReturnType<typeof route<S>>;
}
