import type { AuditAction, AuditActor, AuditDetail, AuditEventView, OwnAuditEvent } from '@receipts/common';
import { and, asc, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database, Executor } from './db/database.js';
import { auditEvents, users, workspaces, type AuditEventRow } from './db/schema.js';

/** One act to record: in which workspace, by whom (null: the system), what, to what. */
export interface AuditEntry<A extends AuditAction = AuditAction> {
  workspaceId: string;
  actorId: string | null;
  action: A;
  subject?: string | null;
  detail?: AuditDetail<A>;
}

/** Who acts, and in which workspace: what an audited write is scoped by and its act recorded under. */
export interface Acting {
  workspaceId: string;
  actorId: string | null;
}

/** An act of `acting`'s. */
export function actedBy<A extends AuditAction>(acting: Acting, action: A, detail: AuditDetail<A>, subject: string | null = null): AuditEntry<A> {
  return { workspaceId: acting.workspaceId, actorId: acting.actorId, action, subject, detail };
}

/** Where a page of the trail starts: the last row's time (to the microsecond, as stored) and id. */
export interface AuditCursor {
  at: string;
  id: string;
}

export interface AuditPageQuery {
  limit: number;
  after?: AuditCursor;
  action?: AuditAction;
  actorId?: string;
}

export const toAuditView = (row: Pick<AuditEventRow, 'id' | 'action' | 'actorEmail' | 'subject' | 'detail' | 'createdAt'>): AuditEventView => ({
  id: row.id,
  action: row.action,
  actor: row.actorEmail,
  subject: row.subject,
  detail: row.detail,
  at: row.createdAt.toISOString(),
});

/** The actor's address, read in the statement that records the act. */
const actorEmail = (actorId: SQL | Placeholder | string) => sql`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${actorId})`;

/**
 * Records an act, in the caller's transaction when it passes one, so the act and its record are
 * written together or not at all. The actor's address is read in the same statement.
 */
export async function recordAudit<A extends AuditAction>(db: Executor, entry: AuditEntry<A>): Promise<void> {
  await db.insert(auditEvents).values({
    workspaceId: entry.workspaceId,
    actorId: entry.actorId,
    actorEmail: entry.actorId ? actorEmail(entry.actorId) : null,
    action: entry.action,
    subject: entry.subject ?? null,
    detail: entry.detail ?? {},
  });
}

/**
 * recordAudit's insert as a CTE, its values SQL (a prepared statement's placeholders): for a
 * write of one statement (the upload's insert) that records its act itself, so that both are
 * written or neither, without a transaction's round trips.
 */
export function auditCte(
  db: Database,
  name: string,
  entry: { workspaceId: SQL | Placeholder; actorId: SQL | Placeholder; action: AuditAction; subject: SQL | Placeholder; detail: SQL },
) {
  const insert = db
    .insert(auditEvents)
    .values({ workspaceId: entry.workspaceId, actorId: entry.actorId, actorEmail: actorEmail(entry.actorId), action: entry.action, subject: entry.subject, detail: entry.detail })
    .returning({ id: auditEvents.id });
  return db.$with(name, { id: auditEvents.id }).as(insert.getSQL());
}

/** A row's time as stored, to the microsecond (a Date keeps milliseconds: a cursor made of one would skip rows). */
const exactAt = sql<string>`to_char(${auditEvents.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The audit trail: written where each act happens (recordAudit), read by owners and admins, and by each person for their own acts. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  record<A extends AuditAction>(entry: AuditEntry<A>): Promise<void> {
    return recordAudit(this.db, entry);
  }

  /** A page of the workspace's trail, newest first, after the cursor, of one action and one actor when asked; `next` is null on the last page. */
  async page(workspaceId: string, query: AuditPageQuery): Promise<{ events: AuditEventView[]; next: AuditCursor | null }> {
    const { after, action, actorId, limit } = query;
    const rows = await this.db
      .select({ row: auditEvents, exactAt })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.workspaceId, workspaceId),
          action ? eq(auditEvents.action, action) : undefined,
          actorId ? eq(auditEvents.actorId, actorId) : undefined,
          after ? sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return { events: shown.map((r) => toAuditView(r.row)), next: rows.length > limit && last ? { at: last.exactAt, id: last.row.id } : null };
  }

  /** Everyone who acted in the workspace and still has an account, by their address now: what the trail can be filtered by. */
  async actors(workspaceId: string): Promise<AuditActor[]> {
    return this.db
      .selectDistinct({ id: users.id, email: users.email })
      .from(auditEvents)
      .innerJoin(users, eq(users.id, auditEvents.actorId))
      .where(eq(auditEvents.workspaceId, workspaceId))
      .orderBy(asc(users.email), asc(users.id));
  }

  /** Every act of one person, in every workspace (with its name), oldest first: their part of "Download my data". */
  async byActor(userId: string): Promise<OwnAuditEvent[]> {
    const rows = await this.db
      .select({ row: auditEvents, workspaceName: workspaces.name })
      .from(auditEvents)
      .innerJoin(workspaces, eq(workspaces.id, auditEvents.workspaceId))
      .where(eq(auditEvents.actorId, userId))
      .orderBy(auditEvents.createdAt, auditEvents.id);
    return rows.map(({ row, workspaceName }) => ({
      id: row.id,
      action: row.action,
      subject: row.subject,
      detail: row.detail,
      at: row.createdAt.toISOString(),
      workspace: { id: row.workspaceId, name: workspaceName },
    }));
  }
}
