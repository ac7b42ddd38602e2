import type { AuditAction, AuditEventView } from '@receipts/common';
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Database, Executor } from './db/database.js';
import { auditEvents, users, type AuditEventRow } from './db/schema.js';

/** One act to record: in which workspace, by whom (null: the system), what, to what. */
export interface AuditEntry {
  workspaceId: string;
  actorId: string | null;
  action: AuditAction;
  subject?: string | null;
  detail?: Record<string, unknown>;
}

export const toAuditView = (row: Pick<AuditEventRow, 'id' | 'action' | 'actorEmail' | 'subject' | 'detail' | 'createdAt'>): AuditEventView => ({
  id: row.id,
  action: row.action,
  actor: row.actorEmail,
  subject: row.subject,
  detail: row.detail,
  at: row.createdAt.toISOString(),
});

/**
 * Records an act, in the caller's transaction when it passes one, so the act and its record are
 * written together or not at all. The actor's address is read in the same statement.
 */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  const email = entry.actorId ? sql`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${entry.actorId})` : null;
  await db.insert(auditEvents).values({
    workspaceId: entry.workspaceId,
    actorId: entry.actorId,
    actorEmail: email,
    action: entry.action,
    subject: entry.subject ?? null,
    detail: entry.detail ?? {},
  });
}

/** The audit trail: written where each act happens (recordAudit), read by owners and admins, and by each person for their own acts. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  record(entry: AuditEntry): Promise<void> {
    return recordAudit(this.db, entry);
  }

  /** A page of the workspace's trail, newest first, before the cursor (the last row's time and id). */
  async page(workspaceId: string, limit: number, before?: { at: string; id: string }): Promise<AuditEventView[]> {
    const cursor = before ? or(lt(auditEvents.createdAt, new Date(before.at)), and(eq(auditEvents.createdAt, new Date(before.at)), lt(auditEvents.id, before.id))) : undefined;
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, workspaceId), cursor))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(limit);
    return rows.map(toAuditView);
  }

  /** Every act of one person, in every workspace, oldest first: their part of "Download my data". */
  async byActor(userId: string): Promise<Array<AuditEventView & { workspaceId: string }>> {
    const rows = await this.db.select().from(auditEvents).where(eq(auditEvents.actorId, userId)).orderBy(auditEvents.createdAt, auditEvents.id);
    return rows.map((row) => ({ ...toAuditView(row), workspaceId: row.workspaceId }));
  }
}
