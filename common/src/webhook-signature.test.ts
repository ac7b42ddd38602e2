import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature, type SignatureCheck } from './webhook-signature.js';

const SECRET = 'whsec_test-secret-of-an-endpoint';
const BODY = JSON.stringify({ id: '6a1f0e7e-3c4b-4d2a-9a51-0c1e2f3a4b5c', type: 'receipt.completed', data: { total: 10.4 } });
const SENT = new Date('2030-01-01T12:00:00Z');
const T = SENT.getTime() / 1000;
const header = signWebhookBody(BODY, SECRET, SENT);
const v1 = header.split('v1=')[1]!;
const seconds = (n: number) => new Date(SENT.getTime() + n * 1000);

describe('signWebhookBody', () => {
  it('signs "t.body" with HMAC-SHA256 under the secret, as the header says', () => {
    // Worked out here the way a receiver without our code would.
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(header).toBe(`t=${T},v1=${expected}`);
  });
});

describe('verifyWebhookSignature', () => {
  it.each<[string, string | Buffer, string | null | undefined, string, Date, SignatureCheck]>([
    ['the delivery as sent', BODY, header, SECRET, SENT, { ok: true, timestamp: T }],
    ['the body as raw bytes', Buffer.from(BODY), header, SECRET, SENT, { ok: true, timestamp: T }],
    ['a receiver whose clock is 299 s ahead', BODY, header, SECRET, seconds(299), { ok: true, timestamp: T }],
    ['a receiver whose clock is 299 s behind', BODY, header, SECRET, seconds(-299), { ok: true, timestamp: T }],
    ['a second v1 (a rotated secret) beside the right one', BODY, `t=${T},v1=${'0'.repeat(64)},v1=${v1}`, SECRET, SENT, { ok: true, timestamp: T }],
    ['an upper-case signature', BODY, `t=${T},v1=${v1.toUpperCase()}`, SECRET, SENT, { ok: true, timestamp: T }],
    ['an altered body', BODY.replace('10.4', '99.4'), header, SECRET, SENT, { ok: false, reason: 'mismatch' }],
    ['a body with a space added', `${BODY} `, header, SECRET, SENT, { ok: false, reason: 'mismatch' }],
    ['the wrong secret', BODY, header, 'whsec_another-endpoints-secret', SENT, { ok: false, reason: 'mismatch' }],
    ['a timestamp moved to now (the signature covers it)', BODY, `t=${T + 600},v1=${v1}`, SECRET, seconds(600), { ok: false, reason: 'mismatch' }],
    ['a replay 301 s later', BODY, header, SECRET, seconds(301), { ok: false, reason: 'expired' }],
    ['a replay a day later', BODY, header, SECRET, seconds(86_400), { ok: false, reason: 'expired' }],
    ['a signature from the future', BODY, header, SECRET, seconds(-301), { ok: false, reason: 'expired' }],
    ['no header', BODY, undefined, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['an empty header', BODY, '', SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['no timestamp', BODY, `v1=${v1}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['no v1', BODY, `t=${T}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['two timestamps', BODY, `t=${T},t=${T + 1},v1=${v1}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['a timestamp that is no number', BODY, `t=soon,v1=${v1}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['a v1 that is no SHA-256 in hex', BODY, `t=${T},v1=${v1.slice(2)}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['only another scheme', BODY, `t=${T},v0=${v1}`, SECRET, SENT, { ok: false, reason: 'malformed' }],
    ['garbage', BODY, 'not a signature', SECRET, SENT, { ok: false, reason: 'malformed' }],
  ])('%s', (_case, body, signature, secret, now, result) => {
    expect(verifyWebhookSignature(body, signature, secret, { toleranceSeconds: 300, now })).toEqual(result);
  });

  it('takes its tolerance from the caller', () => {
    expect(verifyWebhookSignature(BODY, header, SECRET, { toleranceSeconds: 10, now: seconds(11) })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyWebhookSignature(BODY, header, SECRET, { toleranceSeconds: 10, now: seconds(10) }).ok).toBe(true);
  });
});
