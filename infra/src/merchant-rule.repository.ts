import { MERCHANT_RULES_MAX, merchantKey, type MerchantRule, type MerchantRuleKind } from '@receipts/common';
import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import { actedBy, recordAudit, type Acting } from './audit.repository.js';
import type { Database } from './db/database.js';
import { merchantRules, type MerchantRuleRow } from './db/schema.js';

/** A workspace's learned rules: what the worker applies to new receipts, and what the account page lists and edits. */
export class MerchantRuleRepository {
  constructor(private readonly db: Database) {}

  /** Every rule of the workspace, newest first. */
  list(workspaceId: string): Promise<MerchantRuleRow[]> {
    return this.db.select().from(merchantRules).where(eq(merchantRules.workspaceId, workspaceId)).orderBy(desc(merchantRules.updatedAt), asc(merchantRules.id));
  }

  /** The rules the worker applies to one of the workspace's receipts. */
  async forWorkspace(workspaceId: string): Promise<MerchantRule[]> {
    return this.db
      .select({ kind: merchantRules.kind, match: merchantRules.match, matchKey: merchantRules.matchKey, value: merchantRules.value })
      .from(merchantRules)
      .where(eq(merchantRules.workspaceId, workspaceId));
  }

  /**
   * Records what a correction taught: one rule per merchant key and kind, the newest winning. A
   * value equal to its match (a correction back to what was read) forgets the rule instead.
   * Past `MERCHANT_RULES_MAX` the least recently taught rules go.
   */
  async learn(workspaceId: string, learned: ReadonlyArray<Pick<MerchantRule, 'kind' | 'match' | 'value'>>): Promise<void> {
    if (learned.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const { kind, match, value } of learned) {
        const matchKey = merchantKey(match);
        const same = and(eq(merchantRules.workspaceId, workspaceId), eq(merchantRules.kind, kind), eq(merchantRules.matchKey, matchKey));
        if (kind === 'merchant' && value === match) {
          await tx.delete(merchantRules).where(same);
          continue;
        }
        await tx
          .insert(merchantRules)
          .values({ workspaceId, kind, match, matchKey, value })
          .onConflictDoUpdate({
            target: [merchantRules.workspaceId, merchantRules.kind, merchantRules.matchKey],
            set: { match, value, updatedAt: new Date() },
          });
      }
      const kept = tx
        .select({ id: merchantRules.id })
        .from(merchantRules)
        .where(eq(merchantRules.workspaceId, workspaceId))
        .orderBy(desc(merchantRules.updatedAt))
        .limit(MERCHANT_RULES_MAX);
      await tx.delete(merchantRules).where(and(eq(merchantRules.workspaceId, workspaceId), notInArray(merchantRules.id, kept)));
    });
  }

  /** Changes a rule's value (recorded in the workspace's trail); null when the workspace has no such rule. */
  async update(acting: Acting, id: string, value: string): Promise<MerchantRuleRow | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(merchantRules)
        .set({ value, updatedAt: sql`now()` })
        .where(and(eq(merchantRules.id, id), eq(merchantRules.workspaceId, acting.workspaceId)))
        .returning();
      if (row) await recordAudit(tx, actedBy(acting, 'settings.changed', { setting: 'rule', change: 'edited', kind: row.kind, match: row.match, value }));
      return row ?? null;
    });
  }

  async kindOf(workspaceId: string, id: string): Promise<MerchantRuleKind | null> {
    const [row] = await this.db
      .select({ kind: merchantRules.kind })
      .from(merchantRules)
      .where(and(eq(merchantRules.id, id), eq(merchantRules.workspaceId, workspaceId)));
    return row?.kind ?? null;
  }

  /** Forgets a rule (recorded in the workspace's trail); false when the workspace has no such rule. */
  async delete(acting: Acting, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(merchantRules)
        .where(and(eq(merchantRules.id, id), eq(merchantRules.workspaceId, acting.workspaceId)))
        .returning({ kind: merchantRules.kind, match: merchantRules.match });
      if (gone) await recordAudit(tx, actedBy(acting, 'settings.changed', { setting: 'rule', change: 'deleted', kind: gone.kind, match: gone.match }));
      return Boolean(gone);
    });
  }
}
