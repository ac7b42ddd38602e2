import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from './db/database.js';
import { mailTokens, type MailTokenPurpose } from './db/schema.js';

/**
 * The single-use links mailed to an account, for every purpose alike: stored only as the token's
 * SHA-256, used at most once, dead after `expiresAt`, and only the newest link of a purpose counts.
 * Functions of an executor, so that each flow runs them inside its own transaction.
 */

export interface MailToken {
  tokenHash: string;
  userId: string;
  /** The address the link is mailed to. */
  email: string;
  expiresAt: Date;
}

/** A token of `purpose` that may still be used: unused and unexpired. */
const usable = (purpose: MailTokenPurpose, tokenHash: string, now: Date) =>
  and(eq(mailTokens.tokenHash, tokenHash), eq(mailTokens.purpose, purpose), isNull(mailTokens.usedAt), gt(mailTokens.expiresAt, now));

/** Stores a new link; the account's older unused links of the same purpose stop working (only the newest mail counts). Run it in a transaction. */
export async function issueMailToken(tx: Executor, purpose: MailTokenPurpose, token: MailToken): Promise<void> {
  await expireMailTokens(tx, token.userId, purpose);
  await tx.insert(mailTokens).values({ ...token, purpose });
}

/** Whether a token of `purpose` may still be used, without using it. */
export async function isMailTokenUsable(db: Executor, purpose: MailTokenPurpose, tokenHash: string, now: Date): Promise<boolean> {
  const [found] = await db.select({ userId: mailTokens.userId }).from(mailTokens).where(usable(purpose, tokenHash, now));
  return Boolean(found);
}

/**
 * Uses up a token of `purpose` in one statement, so two requests cannot both use it; the account
 * it belongs to, or null when it is not usable (unknown, used, expired, another purpose's) or not
 * mailed to `to` (that account at that address), when given.
 */
export async function consumeMailToken(
  tx: Executor,
  purpose: MailTokenPurpose,
  tokenHash: string,
  now: Date,
  to?: { userId: string; email: string },
): Promise<string | null> {
  const [used] = await tx
    .update(mailTokens)
    .set({ usedAt: now })
    .where(and(usable(purpose, tokenHash, now), to && eq(mailTokens.userId, to.userId), to && eq(mailTokens.email, to.email)))
    .returning({ userId: mailTokens.userId });
  return used?.userId ?? null;
}

/** Ends the account's unused links of `purpose`, or of every purpose when none is given. */
export async function expireMailTokens(tx: Executor, userId: string, purpose?: MailTokenPurpose): Promise<void> {
  await tx.delete(mailTokens).where(and(eq(mailTokens.userId, userId), isNull(mailTokens.usedAt), purpose && eq(mailTokens.purpose, purpose)));
}
