import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACTIVE_TOKENS_MAX, API_TOKEN_PATTERN, API_TOKEN_MESSAGES, type ApiTokenCreated, type ApiTokenView, type CreateApiTokenBody, type TokenScope } from '@receipts/common';
import type { ApiTokenRepository, ApiTokenRow, UserRow } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';
import { unauthenticated } from '../owner.middleware.js';

/** A token's `last_used_at` is written at most this often: a busy script costs no write a request. */
export const TOKEN_USE_INTERVAL_MS = 60_000;

/** What an authenticated token request carries (`req.token`). */
export interface AuthenticatedToken {
  id: string;
  userId: string;
  scopes: readonly TokenScope[];
}

/** A refused token: 401, said as the holder can act on it. */
export class TokenRefusedError extends HttpError {
  constructor(message: string) {
    super(401, 'UNAUTHENTICATED', message);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** A new token's text, the visible part stored to find it, and the hash stored to prove it. */
export function newTokenText(): { text: string; prefix: string; hash: string } {
  const prefix = `rct_${randomBytes(6).toString('base64url')}`;
  const text = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { text, prefix, hash: sha256(text).toString('hex') };
}

function view(row: ApiTokenRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Personal access tokens: made, listed and revoked from the account page; checked on each bearer request. */
export class ApiTokenService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly accounts: { isEmailVerified(user: UserRow): boolean },
  ) {}

  async list(userId: string): Promise<ApiTokenView[]> {
    return (await this.tokens.list(userId)).map(view);
  }

  /** A new token for `user`'s confirmed account; its text is in this answer only. */
  async create(user: UserRow, input: CreateApiTokenBody, now = new Date()): Promise<ApiTokenCreated> {
    // Scripts act for the account: like a plan, that belongs to an address proven to be the holder's.
    if (!this.accounts.isEmailVerified(user)) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', API_TOKEN_MESSAGES.confirmBeforeCreating);
    const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 24 * 3600_000) : null;
    // Two prefixes drawn alike are 1 in 2^48; a second draw settles it.
    for (let draw = 0; draw < 3; draw++) {
      const { text, prefix, hash } = newTokenText();
      const stored = await this.tokens.create({ userId: user.id, name: input.name, prefix, hash, scopes: input.scopes, expiresAt }, ACTIVE_TOKENS_MAX, now);
      if (stored === 'too-many') throw new HttpError(409, 'CONFLICT', API_TOKEN_MESSAGES.tooMany);
      if (stored === null) throw unauthenticated();
      if (stored !== 'prefix-taken') return { ...view(stored), token: text };
    }
    throw new Error('no free token prefix in three draws');
  }

  /** Revokes one of the account's tokens: the next request with it is refused. */
  async revoke(userId: string, id: string, now = new Date()): Promise<void> {
    if (!(await this.tokens.revoke(userId, id, now))) throw notFound(API_TOKEN_MESSAGES.notFound);
  }

  /**
   * The token `text` stands for, when it may be used at `now`; else a TokenRefusedError saying
   * why (revoked or expired only to whoever holds the whole token). Notes its use, at most once
   * a TOKEN_USE_INTERVAL_MS.
   */
  async authenticate(text: string, now = new Date()): Promise<AuthenticatedToken> {
    const parts = API_TOKEN_PATTERN.exec(text);
    const row = parts ? await this.tokens.byPrefix(`rct_${parts[1]}`) : null;
    if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), sha256(text))) throw new TokenRefusedError(API_TOKEN_MESSAGES.unknown);
    if (row.revokedAt) throw new TokenRefusedError(API_TOKEN_MESSAGES.revoked);
    if (row.expiresAt && row.expiresAt <= now) throw new TokenRefusedError(API_TOKEN_MESSAGES.expired);
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOKEN_USE_INTERVAL_MS) await this.tokens.markUsed(row.id, now, TOKEN_USE_INTERVAL_MS);
    return { id: row.id, userId: row.userId, scopes: row.scopes };
  }
}
