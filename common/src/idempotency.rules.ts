import { z } from 'zod';

/**
 * Idempotent requests (POST /api/ocr, POST /api/export): a client that sends `Idempotency-Key`
 * can repeat the request after a lost answer and get the first answer again, marked with
 * `Idempotent-Replayed: true` (Stripe's names), instead of a second upload or export.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;
/**
 * A first request still unanswered after this long died with its process (an upload is answered
 * in well under a second, the largest export pack in minutes): its key is free again.
 */
export const IDEMPOTENCY_CLAIM_STALE_MS = 15 * 60_000;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters.`,
  keyReused: `This ${IDEMPOTENCY_KEY_HEADER} was used for a different request. Use a new key for a new request.`,
  inFlight: `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed. Repeat it in a moment to get its answer.`,
} as const;

/** The header's value: printable ASCII (space included), 1–255 characters. */
export const idempotencyKeySchema = z.string().regex(/^[\x20-\x7e]{1,255}$/, IDEMPOTENCY_MESSAGES.invalidKey);

/** A key as stored: which request first came with it, whether that one was answered, and when. */
export interface StoredIdempotencyKey {
  fingerprint: string;
  answered: boolean;
  createdAt: Date;
}

/**
 * What a request with a key already stored gets: the stored answer (`replay`), a refusal for a
 * different request under the same key (`reused`) or for one still being answered (`in-flight`),
 * or, for a key past its 24 hours or a first request that died unanswered, the key
 * afresh (`expired`).
 */
export type IdempotentOutcome = 'replay' | 'reused' | 'in-flight' | 'expired';

export function idempotentOutcome(stored: StoredIdempotencyKey, fingerprint: string, now: Date): IdempotentOutcome {
  const age = now.getTime() - stored.createdAt.getTime();
  if (age >= IDEMPOTENCY_KEY_TTL_MS || (!stored.answered && age >= IDEMPOTENCY_CLAIM_STALE_MS)) return 'expired';
  if (stored.fingerprint !== fingerprint) return 'reused';
  return stored.answered ? 'replay' : 'in-flight';
}
