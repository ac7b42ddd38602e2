import { apiErrorSchema } from '@receipts/common';

// The calls themselves live in one module per resource beside this one (`<resource>-api.ts`):
// a read is a query key that is its url, read by the shared query function (query-client.ts,
// spec §7); a write is a function. Pages and hooks use those, never fetch directly.

/**
 * A non-OK answer. Its message is the spec §8 form, "<status>: <body text>"; `userMessage` is
 * the api's `{ message }` when it sent one, for the screens.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }

  get userMessage(): string {
    const parsed = apiErrorSchema.safeParse(safeJson(this.body));
    return parsed.success ? parsed.data.message : this.body || this.message;
  }

  get code(): string | undefined {
    const parsed = apiErrorSchema.safeParse(safeJson(this.body));
    return parsed.success ? parsed.data.error : undefined;
  }
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The message a person should read for any thrown value. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.userMessage || fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

/**
 * The first answer of a page's life, which every later request waits for. A new visitor's identity
 * is the session cookie an answer sets: requests sent before any answer came back carry none, so
 * each is given an identity of its own and the browser keeps whichever came last. The first page
 * load sends five at once; under load an upload was then made as one visitor while the live socket
 * listened as another, and the row never moved. One request alone costs a single round trip.
 */
let firstAnswer: Promise<void> | undefined;
let answered = false;

function send(path: string, init: RequestInit): Promise<Response> {
  if (answered) return fetch(path, init);
  if (firstAnswer) return firstAnswer.then(() => fetch(path, init));
  const answer = fetch(path, init);
  // Only its arrival matters here; its failure is the caller's to handle.
  const arrived = () => {
    answered = true;
  };
  firstAnswer = answer.then(arrived, arrived);
  return answer;
}

/**
 * Every call sends cookies and the XMLHttpRequest marker; a JSON content type only when there
 * is a body (spec §7).
 */
export async function apiFetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, headers, ...rest } = init;
  const res = await send(path, {
    ...rest,
    credentials: 'include',
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  if (!res.ok) throw new ApiError(res.status, await res.text().catch(() => ''), res.statusText);
  return res;
}

export async function apiJson<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await apiFetch(path, init);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

export const apiPost = <T>(path: string, json?: unknown) => apiJson<T>(path, { method: 'POST', ...(json !== undefined ? { json } : {}) });
