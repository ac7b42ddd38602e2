import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from './webhook.schema.js';

// How a webhook delivery is signed, and how its receiver checks it (Stripe's scheme): the
// header `Receipts-Signature: t=<unix seconds>,v1=<hex>`, where v1 is the HMAC-SHA256 of
// `${t}.${body}` under the endpoint's secret (the whole `whsec_…` string, as UTF-8). Its own
// entry point, `@receipts/common/webhook-signature`: it needs node:crypto, which the web app,
// importing the package's main entry, must not pull in.

/** The v1 signature of `body` sent at `timestamp` (unix seconds). */
function hmac(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for `body` sent at `now`. */
export function signWebhookBody(body: string | Buffer, secret: string, now: Date = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type SignatureCheck =
  | { ok: true; timestamp: number }
  /** malformed: no `t` or no `v1` in the header; mismatch: no v1 matches (altered body, wrong secret); expired: `t` is outside the tolerance (a replay). */
  | { ok: false; reason: 'malformed' | 'mismatch' | 'expired' };

/**
 * Checks a delivery as it arrived: `body` exactly as received (the raw bytes, before any JSON
 * parsing), the header's value, the endpoint's secret. The timestamp must be within
 * `toleranceSeconds` of `now` either way; any one of several v1 values may match.
 */
export function verifyWebhookSignature(
  body: string | Buffer,
  header: string | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): SignatureCheck {
  const tolerance = options.toleranceSeconds ?? WEBHOOK_SIGNATURE_TOLERANCE_SECONDS;
  const now = options.now ?? new Date();
  const pairs = (header ?? '').split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? ['', ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const timestamps = pairs.filter(([key]) => key === 't').map(([, value]) => value!);
  const signatures = pairs.filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/i.test(value!)).map(([, value]) => value!.toLowerCase());
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const timestamp = Number(timestamps[0]);
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  // Compared in constant time: how much of a guess matched must not show in how long it took.
  if (!signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected))) return { ok: false, reason: 'mismatch' };
  if (Math.abs(now.getTime() / 1000 - timestamp) > tolerance) return { ok: false, reason: 'expired' };
  return { ok: true, timestamp };
}
