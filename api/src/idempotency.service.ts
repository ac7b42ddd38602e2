import { createHash } from 'node:crypto';
import { IDEMPOTENCY_MESSAGES, idempotentOutcome } from '@receipts/common';
import { forgetIdempotencyKeys, keptFileOf, type FileStore, type IdempotencyKeyRepository, type IdempotentAnswer, type Logger } from '@receipts/infra';
import { HttpError } from './http-error.js';
import type { Owner } from './session.js';

/** What makes two requests the same request: the endpoint and what was sent to it, hashed. */
export function requestFingerprint(endpoint: string, ...sent: unknown[]): string {
  return createHash('sha256').update(JSON.stringify([endpoint, ...sent])).digest('hex');
}

/** Claims that keep failing to stick (each time released or expired in between) are given up on after this many tries. */
const MAX_CLAIMS = 3;

/**
 * Idempotency-Keys (Stripe's scheme): the first request under a key claims it, acts, and keeps
 * its answer; a repeat of the same request is answered that again (`replayed`); a different
 * request under the key is refused (422), and one arriving while the first is still being
 * answered too (409, not waited for: the first may take minutes). A first request that fails
 * leaves the key free, so a retry may succeed.
 */
export class IdempotencyService {
  constructor(
    private readonly keys: IdempotencyKeyRepository,
    private readonly files: FileStore,
    private readonly log: Logger,
  ) {}

  /**
   * `first` once per owner and key: its answer, or the answer it gave before. Without a key, simply
   * `first`. `fingerprint` (requestFingerprint) must name the endpoint, so an answer found under
   * the same fingerprint is of the kind `first` gives.
   */
  async run<A extends IdempotentAnswer>(owner: Owner, key: string | undefined, fingerprint: string, first: () => Promise<A>): Promise<{ answer: A; replayed: boolean }> {
    if (key === undefined) return { answer: await first(), replayed: false };
    for (let tries = 0; tries < MAX_CLAIMS; tries++) {
      const claim = await this.keys.claim(owner, key, fingerprint);
      if (claim) return { answer: await this.answerClaim(claim.id, first), replayed: false };
      const stored = await this.keys.find(owner, key);
      // Released or expired since the claim was tried: try again.
      if (!stored) continue;
      switch (idempotentOutcome({ fingerprint: stored.fingerprint, answered: stored.answer !== null, createdAt: stored.createdAt }, fingerprint, new Date())) {
        case 'replay':
          return { answer: stored.answer as A, replayed: true };
        case 'reused':
          throw new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', IDEMPOTENCY_MESSAGES.keyReused);
        case 'in-flight':
          throw new HttpError(409, 'CONFLICT', IDEMPOTENCY_MESSAGES.inFlight);
        case 'expired':
          await forgetIdempotencyKeys(this.keys, this.files, [stored]);
      }
    }
    throw new HttpError(409, 'CONFLICT', IDEMPOTENCY_MESSAGES.inFlight);
  }

  /** Deletes every key of the owner and the exports they kept (account deletion). */
  async forgetOwner(owner: Owner): Promise<void> {
    await forgetIdempotencyKeys(this.keys, this.files, await this.keys.ofOwner(owner));
  }

  /** Runs the first request under a claim and keeps its answer; a failure gives the key up. */
  private async answerClaim<A extends IdempotentAnswer>(claimId: string, first: () => Promise<A>): Promise<A> {
    let answer: A;
    try {
      answer = await first();
    } catch (err) {
      await this.release(claimId);
      throw err;
    }
    let kept = false;
    try {
      kept = await this.keys.answer(claimId, answer);
    } finally {
      if (!kept) {
        await this.release(claimId);
        await this.discard(answer);
      }
    }
    // The claim was given up as stale and taken by a repeat, which is answering it now.
    if (!kept) throw new HttpError(409, 'CONFLICT', IDEMPOTENCY_MESSAGES.inFlight);
    return answer;
  }

  /** A claim left behind is taken over once stale (IDEMPOTENCY_CLAIM_STALE_MS): a failed release is only logged. */
  private async release(claimId: string): Promise<void> {
    await this.keys.release(claimId).catch((err: unknown) => this.log.warn({ err, claimId }, 'idempotency key not released; it is free again once stale'));
  }

  /** An answer that could not be kept leaves no file behind. */
  private async discard(answer: IdempotentAnswer): Promise<void> {
    const fileId = keptFileOf(answer);
    if (fileId) await this.files.delete(fileId).catch((err: unknown) => this.log.warn({ err, fileId }, 'kept export not deleted'));
  }
}
