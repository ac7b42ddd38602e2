import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uploads } from './db/schema.js';
import type { QuotaOwner } from './quota.service.js';

/**
 * One owner as a string: `user:<id>` for an account, `anon:<id>` for an anonymous session. Names
 * the owner's Socket.IO room (ownerRoom) and the namespace of its Idempotency-Keys.
 */
export function ownerKey(owner: Pick<QuotaOwner, 'userId' | 'anonId'>): string {
  if (owner.userId) return `user:${owner.userId}`;
  if (owner.anonId) return `anon:${owner.anonId}`;
  throw new Error('An owner has an account or an anonymous session');
}

/** The owner's uploads: the account's, or an anonymous session's not yet taken over by an account. */
export function ownedBy(owner: Pick<QuotaOwner, 'userId' | 'anonId'>): SQL {
  if (owner.userId) return eq(uploads.userId, owner.userId);
  if (owner.anonId) return and(eq(uploads.anonId, owner.anonId), isNull(uploads.userId))!;
  throw new Error('An owner has an account or an anonymous session');
}

/** Select this beside an upload (left-joined on `duplicateOf`) to name the earlier upload it repeats. */
export const duplicateOriginal = alias(uploads, 'original');
