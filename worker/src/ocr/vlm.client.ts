import { metrics, type Logger } from '@receipts/infra';
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { endpointLimiter } from './endpoint-limiter.js';

export interface VlmClientOptions {
  /** Up to `/v1`, as every OpenAI-compatible server names it. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** One try, from sending to the last token. */
  timeoutMs: number;
  /** Tries after the first, for failures another try may not meet. */
  retries: number;
  /** Requests to this endpoint at once, per process. */
  concurrency: number;
  stream: boolean;
  /** USD per million tokens, for the cost counter. */
  pricePerMTok?: { input?: number; output?: number };
  /** The first backoff; doubles each try (tests shorten it). */
  backoffMs?: number;
  log: Logger;
}

/** What a chat completion request carries besides the model, the messages and the transport's own fields. */
export type CompletionRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'model' | 'messages' | 'stream' | 'stream_options'>;

export interface Completion {
  text: string;
  finishReason: string | null;
}

/** How a try failed, in the words of /metrics, and whether another try may meet a different server. */
type Outcome = 'ok' | 'timeout' | 'rate_limited' | 'server_error' | 'client_error' | 'connection_error';

/** The endpoint failed for good: it refused the request (a wrong model, key or request), or every try failed. */
export class VlmRequestError extends Error {
  override name = 'VlmRequestError';
  constructor(
    message: string,
    /** Another job's try cannot do better (a 4xx other than 408, 409 and 429). */
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/** A streamed answer is read no further than this (a receipt's JSON is a few kB; max_tokens should stop it long before). */
const MAX_ANSWER_CHARS = 1_000_000;

/** Retry-After is obeyed, but never for longer than this: a job must not sleep on a server's say-so. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * One OpenAI-compatible chat-completions endpoint through the `openai` client. The client's own
 * retries are off: its backoff sleep cannot be cancelled and obeys any Retry-After however long,
 * and its timeout stops at the response headers. Here each try has one deadline that covers a
 * streamed body too, a cancelled upload stops waiting at once, and every try is counted.
 */
export function createVlmClient(options: VlmClientOptions) {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers want no key; the client wants one.
    apiKey: options.apiKey || 'none',
    maxRetries: 0,
    // Our own deadline (below) fires first; this one only stops a hung connect.
    timeout: options.timeoutMs + 5_000,
  });
  const { model, log } = options;
  const endpoint = new URL(options.baseUrl).host;
  const limiter = endpointLimiter(options.baseUrl, options.concurrency, (queued) => metrics.vlmWaiting.set({ endpoint }, queued));

  async function once(messages: ChatCompletionMessageParam[], request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const attempt = AbortSignal.any([signal, deadline]);
    const started = performance.now();
    const observe = (outcome: Outcome) => {
      metrics.vlmRequests.inc({ model, outcome });
      metrics.vlmRequestDuration.observe({ model, outcome }, (performance.now() - started) / 1000);
    };
    try {
      let completion: Completion;
      let usage: OpenAI.CompletionUsage | null | undefined;
      if (options.stream) {
        const stream = await client.chat.completions.create(
          { ...request, model, messages, stream: true, stream_options: { include_usage: true } },
          { signal: attempt },
        );
        let text = '';
        let finishReason: string | null = null;
        for await (const chunk of stream) {
          const choice = chunk.choices[0];
          text += choice?.delta?.content ?? '';
          finishReason = choice?.finish_reason ?? finishReason;
          usage = chunk.usage ?? usage;
          if (text.length > MAX_ANSWER_CHARS) {
            // A server that does not stop: what came is the answer, cut (and malformed).
            stream.controller.abort();
            finishReason = 'length';
            break;
          }
        }
        // The client ends an aborted stream quietly: the deadline or the cancel is ours to tell.
        if (finishReason !== 'length') attempt.throwIfAborted();
        if (finishReason === null) throw new ConnectionClosedError();
        completion = { text, finishReason };
      } else {
        const response = await client.chat.completions.create({ ...request, model, messages, stream: false }, { signal: attempt });
        const choice = response.choices[0];
        completion = { text: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? null };
        usage = response.usage;
      }
      observe('ok');
      countTokens(usage);
      return completion;
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const outcome: Outcome = deadline.aborted ? 'timeout' : outcomeOf(err);
      observe(outcome);
      throw new TryFailed(outcome, deadline.aborted ? `no answer within ${options.timeoutMs / 1000} s` : describe(err), err);
    }
  }

  function countTokens(usage: OpenAI.CompletionUsage | null | undefined): void {
    if (!usage) return;
    metrics.vlmTokens.inc({ model, kind: 'prompt' }, usage.prompt_tokens ?? 0);
    metrics.vlmTokens.inc({ model, kind: 'completion' }, usage.completion_tokens ?? 0);
    const { input, output } = options.pricePerMTok ?? {};
    if (input === undefined && output === undefined) return;
    metrics.vlmCost.inc({ model }, ((usage.prompt_tokens ?? 0) * (input ?? 0) + (usage.completion_tokens ?? 0) * (output ?? 0)) / 1e6);
  }

  return {
    model,
    endpoint,
    /** One answer, tried again with backoff on timeouts, dropped connections, 429 and 5xx. */
    async complete(messages: ChatCompletionMessageParam[], request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
      for (let attempt = 0; ; attempt++) {
        let result: Completion | TryFailed;
        try {
          result = await limiter.run(() => once(messages, request, signal), signal);
        } catch (err) {
          if (!(err instanceof TryFailed)) throw err;
          result = err;
        }
        if (!(result instanceof TryFailed)) return result;
        const tries = `${attempt + 1} ${attempt === 0 ? 'try' : 'tries'}`;
        if (!result.retryable) throw new VlmRequestError(`The vision model at ${endpoint} refused the request (${model}): ${result.detail}`, true);
        if (attempt >= options.retries) throw new VlmRequestError(`The vision model at ${endpoint} failed ${tries} (${model}): ${result.detail}`, false);
        const delay = backoff(attempt, result.retryAfterMs, options.backoffMs ?? 500);
        log.warn({ endpoint, model, attempt: attempt + 1, outcome: result.outcome, detail: result.detail, retryInMs: Math.round(delay) }, 'vision model request failed; trying again');
        await sleep(delay, signal);
      }
    },
  };
}

class ConnectionClosedError extends Error {
  override message = 'the stream ended before the answer did';
}

class TryFailed extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  constructor(
    readonly outcome: Outcome,
    readonly detail: string,
    cause: unknown,
  ) {
    super(detail);
    const status = cause instanceof APIError ? cause.status : undefined;
    this.retryable = outcome !== 'client_error' || status === 408 || status === 409;
    this.retryAfterMs = cause instanceof APIError ? retryAfter(cause.headers) : undefined;
  }
}

function outcomeOf(err: unknown): Outcome {
  if (err instanceof APIError && typeof err.status === 'number') {
    if (err.status === 429) return 'rate_limited';
    if (err.status >= 500) return 'server_error';
    return 'client_error';
  }
  return 'connection_error';
}

/** What went wrong in words an operator can act on; the server's own error text where it gave one. */
function describe(err: unknown): string {
  if (err instanceof APIError && typeof err.status === 'number') return `HTTP ${err.status}: ${err.message.replace(/^\d{3}\s*/, '').slice(0, 300)}`;
  const cause = (err as Error & { cause?: Error }).cause;
  return `${(err as Error).message}${cause?.message ? ` (${cause.message})` : ''}`;
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms)) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds * 1000 : Math.max(0, Date.parse(value) - Date.now()) || undefined;
}

/** Exponential from `base` with a quarter of jitter, or the server's Retry-After, capped either way. */
function backoff(attempt: number, retryAfterMs: number | undefined, base: number): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
  return Math.min(base * 2 ** attempt, 8 * base) * (1 - Math.random() * 0.25);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
