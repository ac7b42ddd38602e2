import { setTimeout as sleep } from 'node:timers/promises';
import createClient, { type Client } from 'openapi-fetch';
import type { Credentials } from './cli-config.js';
import type { components, paths } from './generated/api-schema.js';

/** The api, typed by its OpenAPI document: every call names a path and method the document has. */
export type ApiClient = Client<paths>;

type ApiErrorBody = components['schemas']['ApiError'];

/** A client that sends the token on every request. `baseUrl` is the server's root: the document's paths start with /api. */
export function apiClient(credentials: Credentials, version: string): ApiClient {
  return createClient<paths>({
    baseUrl: credentials.url.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${credentials.token}`, 'User-Agent': `receipts-cli/${version}` },
  });
}

/** The api answered with an error: its `{ error, message }`, or what little a non-JSON answer says. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** No answer from the api at all (refused, unresolvable, cut off). */
export class ApiUnreachableError extends Error {}

const isErrorBody = (body: unknown): body is ApiErrorBody => typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).message === 'string';

export function apiError(response: Response, body: unknown): ApiError {
  if (isErrorBody(body)) return new ApiError(response.status, typeof body.error === 'string' ? body.error : null, body.message);
  // Not the api's error shape: a proxy's page, or no api at this URL.
  const hint = response.status === 404 ? ` Is ${new URL(response.url).origin} the Receipts api? Check --url.` : '';
  return new ApiError(response.status, null, `The server answered ${response.status} ${response.statusText}.${hint}`);
}

/**
 * Whether an error is worth sending the same request again for: too many requests, the service
 * briefly down, or (409 CONFLICT to a request with an Idempotency-Key, the only 409 CONFLICT of the
 * routes the CLI calls) the first request with the key still being answered.
 */
const isPassing = (error: ApiError) => (error.status === 429 && error.code === 'RATE_LIMITED') || error.status === 503 || (error.status === 409 && error.code === 'CONFLICT');

/** How long to wait before try `attempt` (1, 2, …): what Retry-After asks (at most a minute), else 1 s, 2 s, 4 s. */
function delayMs(attempt: number, response: Response | null): number {
  const retryAfter = Number(response?.headers.get('Retry-After'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter, 60) * 1000;
  return 1000 * 2 ** (attempt - 1);
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Sends a request (again after a network error, a rate limit or a 503, up to `attempts` times)
 * and gives its data and answer; an ApiError for the api's refusal. Only requests that are safe to
 * repeat come here: reads, an export, and uploads, which carry their Idempotency-Key.
 */
export async function call<T>(send: () => Promise<Outcome<T>>, attempts = 4): Promise<{ data: T; response: Response }> {
  for (let attempt = 1; ; attempt++) {
    let outcome: Outcome<T>;
    try {
      outcome = await send();
    } catch (err) {
      if (attempt >= attempts) throw new ApiUnreachableError(`Could not reach the api: ${causeOf(err)}`);
      await sleep(delayMs(attempt, null));
      continue;
    }
    const { data, error, response } = outcome;
    if (response.ok) return { data: data as T, response };
    const refusal = apiError(response, error);
    if (!isPassing(refusal) || attempt >= attempts) throw refusal;
    await sleep(delayMs(attempt, response));
  }
}

/** fetch's "fetch failed" hides why: its cause says (connect ECONNREFUSED 127.0.0.1:3000, getaddrinfo ENOTFOUND …). */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (err as Error).message || String(err);
}
