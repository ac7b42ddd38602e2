import type { TokenScope } from '@receipts/common';
import { and, count, desc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { apiTokens, users, type ApiTokenRow } from './db/schema.js';

export type { ApiTokenRow };

/** What a new token is stored as: never its text, only its visible prefix and its hash. */
export interface NewApiToken {
  userId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: TokenScope[];
  expiresAt: Date | null;
}

/** A token that may still be used at `now`: not revoked, not expired. */
const usable = (now: Date) => and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));

/** Personal access tokens (see the api_tokens table). */
export class ApiTokenRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a token unless the account holds `maxActive` usable ones already (`too-many`) or the
   * prefix is taken (`prefix-taken`: the caller draws another); null when the account is gone.
   * The account's row is locked meanwhile, so two requests at once cannot pass the bound together.
   */
  async create(token: NewApiToken, maxActive: number, now: Date): Promise<ApiTokenRow | 'too-many' | 'prefix-taken' | null> {
    return this.db.transaction(async (tx) => {
      const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.id, token.userId)).for('update');
      if (!account) return null;
      const [held] = await tx
        .select({ n: count() })
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, token.userId), usable(now)));
      if (Number(held!.n) >= maxActive) return 'too-many';
      const [row] = await tx.insert(apiTokens).values(token).onConflictDoNothing({ target: apiTokens.prefix }).returning();
      return row ?? 'prefix-taken';
    });
  }

  /** The account's tokens that are not revoked (expired ones too, to be seen and revoked), newest first. */
  list(userId: string): Promise<ApiTokenRow[]> {
    return this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  }

  /** The token with this visible prefix, revoked or expired too (the caller says which). */
  async byPrefix(prefix: string): Promise<ApiTokenRow | null> {
    const [row] = await this.db.select().from(apiTokens).where(eq(apiTokens.prefix, prefix));
    return row ?? null;
  }

  /** Revokes one of the account's tokens; false when it has no such token not yet revoked. */
  async revoke(userId: string, id: string, now: Date): Promise<boolean> {
    const revoked = await this.db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return revoked.length > 0;
  }

  /**
   * Notes that the token was used at `now`, unless that was noted less than `intervalMs` ago (by
   * this process or another): at most one write a token per interval, whatever the traffic.
   */
  async markUsed(id: string, now: Date, intervalMs: number): Promise<void> {
    const since = new Date(now.getTime() - intervalMs);
    await this.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lte(apiTokens.lastUsedAt, since))));
  }
}
