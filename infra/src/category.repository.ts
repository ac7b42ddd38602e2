import type { Category } from '@receipts/common';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { actedBy, recordAudit, type Acting } from './audit.repository.js';
import type { Database, Executor } from './db/database.js';
import { merchantRules, receipts, uploads, userCategories, type UserCategoryRow } from './db/schema.js';

/** How many of the owner's receipts each category holds, by its name as stored. */
export type CategoryCounts = ReadonlyMap<string, number>;

/** Files the workspace's receipts of category `from` under `to`. */
function refile(tx: Executor, workspaceId: string, from: string, to: string) {
  return tx
    .update(receipts)
    .set({ category: to, updatedAt: sql`now()` })
    .where(and(eq(receipts.category, from), sql`${receipts.uploadId} IN (SELECT ${uploads.id} FROM ${uploads} WHERE ${uploads.workspaceId} = ${workspaceId})`));
}

/**
 * A workspace's own categories. A category's receipts and rules name it, so a rename or a delete
 * carries them along in the same transaction: nothing is left filed under a name that is gone.
 */
export class CategoryRepository {
  constructor(private readonly db: Database) {}

  /** The user's own categories, oldest first (the order they made them in). */
  list(workspaceId: string): Promise<UserCategoryRow[]> {
    return this.db.select().from(userCategories).where(eq(userCategories.workspaceId, workspaceId)).orderBy(asc(userCategories.createdAt), asc(userCategories.id));
  }

  /** The DATEV account of each own category that has one, by name. */
  async accounts(workspaceId: string): Promise<Record<string, string>> {
    const rows = await this.list(workspaceId);
    return Object.fromEntries(rows.flatMap((r) => (r.datevAccount ? [[r.name, r.datevAccount]] : [])));
  }

  /** How many of the workspace's receipts are in each category. */
  async counts(workspaceId: string): Promise<CategoryCounts> {
    const rows = await this.db
      .select({ category: receipts.category, n: count() })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(eq(uploads.workspaceId, workspaceId))
      .groupBy(receipts.category);
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }

  /** Adds one (recorded in the workspace's trail); null when the workspace has one of that name already (whatever its case). */
  async add(acting: Acting, name: string, datevAccount: string | null): Promise<UserCategoryRow | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(userCategories).values({ workspaceId: acting.workspaceId, name, datevAccount }).onConflictDoNothing().returning();
      if (row) await recordAudit(tx, actedBy(acting, 'settings.changed', { setting: 'category', change: 'added', name: row.name, datevAccount }));
      return row ?? null;
    });
  }

  /**
   * Renames one, its receipts and its category rules with it, and/or sets its DATEV account
   * (recorded in the workspace's trail); null when the workspace has no such category.
   */
  async update(acting: Acting, name: string, change: { name?: string; datevAccount?: string | null }): Promise<UserCategoryRow | null> {
    const { workspaceId } = acting;
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(userCategories)
        .where(and(eq(userCategories.workspaceId, workspaceId), eq(userCategories.name, name)))
        .for('update');
      if (!before) return null;
      const [row] = await tx.update(userCategories).set({ ...change, updatedAt: sql`now()` }).where(eq(userCategories.id, before.id)).returning();
      const renamed = change.name !== undefined && change.name !== name;
      const accountSet = change.datevAccount !== undefined && change.datevAccount !== before.datevAccount;
      if (renamed || accountSet) {
        const detail = { setting: 'category', change: 'changed', name, ...(renamed ? { to: change.name } : {}), ...(accountSet ? { datevAccount: change.datevAccount } : {}) } as const;
        await recordAudit(tx, actedBy(acting, 'settings.changed', detail));
      }
      if (!renamed) return row ?? null;
      await refile(tx, workspaceId, name, change.name!);
      await tx
        .update(merchantRules)
        .set({ value: change.name, updatedAt: sql`now()` })
        .where(and(eq(merchantRules.workspaceId, workspaceId), eq(merchantRules.kind, 'category'), eq(merchantRules.value, name)));
      return row ?? null;
    });
  }

  /**
   * Deletes one: its receipts go to `other` (the spec's category for what fits none) and the rules
   * that filed merchants under it are forgotten (recorded in the workspace's trail). False when the workspace has no such category.
   */
  async delete(acting: Acting, name: string): Promise<boolean> {
    const { workspaceId } = acting;
    return this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(userCategories)
        .where(and(eq(userCategories.workspaceId, workspaceId), eq(userCategories.name, name)))
        .returning({ id: userCategories.id });
      if (gone.length === 0) return false;
      const other: Category = 'other';
      await refile(tx, workspaceId, name, other);
      await tx.delete(merchantRules).where(and(eq(merchantRules.workspaceId, workspaceId), eq(merchantRules.kind, 'category'), eq(merchantRules.value, name)));
      await recordAudit(tx, actedBy(acting, 'settings.changed', { setting: 'category', change: 'deleted', name }));
      return true;
    });
  }
}
