import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { idempotencyKeys, type IdempotencyKeyRow, type IdempotentAnswer } from './db/schema.js';
import type { QuotaOwner } from './quota.service.js';
import { ownerKey } from './upload-scope.js';

/** The file an answer keeps in the file store, if any (an export's bytes). */
export function keptFileOf(answer: IdempotentAnswer | null): string | null {
  return answer && 'export' in answer ? answer.export.fileId : null;
}

/**
 * Idempotency-Keys (common/src/idempotency.rules.ts decides what a stored one means): a first
 * request claims its key by inserting it, so of two requests at once only one gets the row and the
 * other finds it; the claim is then answered, or released when the first request fails.
 */
export class IdempotencyKeyRepository {
  constructor(private readonly db: Database) {}

  /** Claims `key` for a first request: the new, unanswered row, or null when the owner holds the key already (`find` it). */
  async claim(owner: Pick<QuotaOwner, 'userId' | 'anonId'>, key: string, fingerprint: string): Promise<IdempotencyKeyRow | null> {
    const [claimed] = await this.db
      .insert(idempotencyKeys)
      .values({ owner: ownerKey(owner), key, fingerprint })
      .onConflictDoNothing({ target: [idempotencyKeys.owner, idempotencyKeys.key] })
      .returning();
    return claimed ?? null;
  }

  async find(owner: Pick<QuotaOwner, 'userId' | 'anonId'>, key: string): Promise<IdempotencyKeyRow | null> {
    const [row] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.owner, ownerKey(owner)), eq(idempotencyKeys.key, key)));
    return row ?? null;
  }

  /** Records a claim's answer; false when the claim is no longer there unanswered (it was given up as stale and claimed again). */
  async answer(id: string, answer: IdempotentAnswer): Promise<boolean> {
    const answered = await this.db
      .update(idempotencyKeys)
      .set({ answer, uploadId: 'upload' in answer ? answer.upload.id : null })
      .where(and(eq(idempotencyKeys.id, id), isNull(idempotencyKeys.answer)))
      .returning({ id: idempotencyKeys.id });
    return answered.length > 0;
  }

  /** Gives up a claim whose first request failed: the key is free for a retry. An answered key stays. */
  async release(id: string): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), isNull(idempotencyKeys.answer)));
  }

  /** Keys created before `before` (expired), oldest first, at most `limit`. */
  async due(before: Date, limit: number): Promise<Array<Pick<IdempotencyKeyRow, 'id' | 'answer'>>> {
    return this.db
      .select({ id: idempotencyKeys.id, answer: idempotencyKeys.answer })
      .from(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before))
      .orderBy(asc(idempotencyKeys.createdAt))
      .limit(limit);
  }

  /** Deletes keys by id (their kept files deleted first by the caller). */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(idempotencyKeys).where(inArray(idempotencyKeys.id, [...ids]));
  }

  /** Every key of the owner (account deletion). */
  async ofOwner(owner: Pick<QuotaOwner, 'userId' | 'anonId'>): Promise<Array<Pick<IdempotencyKeyRow, 'id' | 'answer'>>> {
    return this.db.select({ id: idempotencyKeys.id, answer: idempotencyKeys.answer }).from(idempotencyKeys).where(eq(idempotencyKeys.owner, ownerKey(owner)));
  }
}
