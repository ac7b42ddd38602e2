import { errorChain } from './error-chain.js';

/** Socket-level failures: the server is not there (yet), went away, or did not answer. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that is shutting down, starting up or unreachable:
 * class 08 (connection exception) and 57P01–57P03 (admin/crash shutdown, cannot connect now).
 */
const POSTGRES_CODES = /^(08\d{3}|57P0[123])$/;

/** What pg, pg-pool and ioredis say when their server is unreachable (they set no code). */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries per request|getaddrinfo|connect ECONNREFUSED/;

/**
 * True when `err` (or an error it wraps, as Drizzle does) means PostgreSQL, Redis or the object
 * store is unreachable rather than that the request or the data is wrong: the api answers 503 and a
 * worker waits for the service instead of spending the job's attempts.
 */
export function isServiceUnavailable(err: unknown): boolean {
  for (const e of errorChain(err)) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.test(code))) return true;
    if (name === 'MaxRetriesPerRequestError') return true;
    // The object store (AWS SDK) still answering with a server fault (500, 503 SlowDown) after its own retries.
    if ((e as { $fault?: unknown }).$fault === 'server') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}
