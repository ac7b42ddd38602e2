import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { answerVerdict, WEBHOOK_SIGNATURE_HEADER } from '@receipts/common';
import { signWebhookBody } from '@receipts/common/webhook-signature';
import { resolveWebhookDestination, WebhookDestinationError, type HostResolver, type WebhookDestination, type WebhookPolicy } from '@receipts/infra';

/** One attempt as the delivery log records it. */
export interface AttemptResult {
  ok: boolean;
  httpStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
}

export interface WebhookRequest {
  url: string;
  secret: string;
  /** The JSON body, sent as it is stored. */
  payload: string;
  event: string;
  deliveryId: string;
}

export interface SendOptions {
  policy: WebhookPolicy;
  timeoutMs: number;
  /** The host names' resolver (the system's unless a test gives one). */
  resolve?: HostResolver;
}

/** What is read of an answer's body: nothing is kept, but a receiver must be let finish writing it. */
const ANSWER_BYTES_READ = 64 * 1024;

/**
 * A lookup that answers with the checked address only: the request connects where the check
 * looked, whatever the name resolves to by now (and TLS still checks the certificate against
 * the name).
 */
function pinnedLookup(destination: WebhookDestination): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
}

/**
 * Sends one attempt of a delivery: the destination checked again (its name resolved now), the
 * body signed now, posted to the checked address without following redirects, within
 * `timeoutMs` from connecting to the answer's end.
 */
export async function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<AttemptResult> {
  let destination: WebhookDestination;
  try {
    destination = await resolveWebhookDestination(request.url, options.policy, options.resolve);
  } catch (err) {
    if (err instanceof WebhookDestinationError) return { ok: false, httpStatus: null, responseTimeMs: null, error: err.message };
    throw err;
  }
  const body = Buffer.from(request.payload);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { status, location } = await post(destination, body, {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': 'Receipts-Webhooks/1.0',
      [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(body, request.secret),
      'Receipts-Event': request.event,
      'Receipts-Delivery': request.deliveryId,
    }, options.timeoutMs);
    const verdict = answerVerdict(status, location);
    return { ok: verdict.ok, httpStatus: status, responseTimeMs: elapsed(), error: verdict.ok ? null : verdict.error };
  } catch (err) {
    const timedOut = (err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError';
    const error = timedOut ? `No answer within ${options.timeoutMs / 1000} s.` : `Could not connect: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`;
    return { ok: false, httpStatus: null, responseTimeMs: timedOut ? elapsed() : null, error };
  }
}

/** POSTs `body` to the destination's checked address; the answer's status and Location once its body is read (up to a bound). */
function post(destination: WebhookDestination, body: Buffer, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; location: string | null }> {
  const { url } = destination;
  const transport = destination.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        method: 'POST',
        protocol: destination.protocol,
        hostname: destination.host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers,
        lookup: pinnedLookup(destination),
        // A fresh connection each time: no socket pooled for another resolution of the name.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        let read = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null });
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is what counts, and a receiver streaming forever must not hold the slot.
          if (read > ANSWER_BYTES_READ) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
