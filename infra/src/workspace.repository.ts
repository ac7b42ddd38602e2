import { changedDatevSettings, DEFAULT_DATEV_SETTINGS, type DatevSettings, type WorkspaceRole } from '@receipts/common';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { actedBy, recordAudit, type Acting } from './audit.repository.js';
import type { Database, Executor } from './db/database.js';
import { users, workspaceMembers, workspaces, type UserRow, type WorkspaceRow } from './db/schema.js';

/** A workspace as one of its members sees it: with their role in it. */
export interface Membership {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}

/** The account's own workspace, made with it; its id is the account's (so was all data of before workspaces). */
export async function createPersonalWorkspace(tx: Executor, user: Pick<UserRow, 'id' | 'username'>): Promise<void> {
  await tx.insert(workspaces).values({ id: user.id, name: user.username, personalOf: user.id });
  await tx.insert(workspaceMembers).values({ workspaceId: user.id, userId: user.id, role: 'owner' });
}

/** Workspaces and who is in them. Every query about a workspace's data is scoped by its id elsewhere; this says who may ask. */
export class WorkspaceRepository {
  constructor(private readonly db: Database) {}

  /** The user's membership of a workspace; null when they are not in it (or it does not exist). */
  async membership(userId: string, workspaceId: string): Promise<Membership | null> {
    const [row] = await this.db
      .select({ workspace: workspaces, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)));
    return row ?? null;
  }

  /** Every workspace the user belongs to: the personal one first, then by name. */
  async listFor(userId: string): Promise<Array<Membership & { members: number }>> {
    const members = this.db.select({ workspaceId: workspaceMembers.workspaceId, n: count().as('n') }).from(workspaceMembers).groupBy(workspaceMembers.workspaceId).as('counted');
    const rows = await this.db
      .select({ workspace: workspaces, role: workspaceMembers.role, members: members.n })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .innerJoin(members, eq(members.workspaceId, workspaces.id))
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(sql`${workspaces.personalOf} IS NULL`, asc(sql`lower(${workspaces.name})`), asc(workspaces.id));
    return rows.map((row) => ({ ...row, members: Number(row.members) }));
  }

  /** A new team workspace, the user its owner; the first act of its trail. */
  async create(userId: string, name: string): Promise<WorkspaceRow> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(workspaces).values({ name }).returning();
      await tx.insert(workspaceMembers).values({ workspaceId: created!.id, userId, role: 'owner' });
      await recordAudit(tx, actedBy({ workspaceId: created!.id, actorId: userId }, 'workspace.created', { name }));
      return created!;
    });
  }

  /** How many team workspaces the user owns (the personal one not counted). */
  async ownedCount(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, 'owner'), isNull(workspaces.personalOf)));
    return Number(row?.n ?? 0);
  }

  /** Renames the workspace, recorded in its trail when the name changed; null when there is no such workspace. */
  async rename(acting: Acting, name: string): Promise<WorkspaceRow | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, acting.workspaceId)).for('update');
      if (!before) return null;
      const [row] = await tx.update(workspaces).set({ name, updatedAt: sql`now()` }).where(eq(workspaces.id, acting.workspaceId)).returning();
      if (before.name !== name) await recordAudit(tx, actedBy(acting, 'workspace.renamed', { from: before.name, to: name }));
      return row ?? null;
    });
  }

  /** The workspace's members with their names and addresses, owner first, then by when they joined. */
  members(workspaceId: string) {
    return this.db
      .select({ userId: users.id, email: users.email, username: users.username, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(sql`${workspaceMembers.role} <> 'owner'`, asc(workspaceMembers.createdAt), asc(users.id));
  }

  /** The workspace's DATEV export settings; null when it keeps the defaults. */
  async datevSettings(workspaceId: string): Promise<DatevSettings | null> {
    const [row] = await this.db.select({ settings: workspaces.datevSettings }).from(workspaces).where(eq(workspaces.id, workspaceId));
    return row?.settings ?? null;
  }

  /** Saves the workspace's DATEV settings; its trail records which changed (the first save always: the defaults become its own). */
  async saveDatevSettings(acting: Acting, settings: DatevSettings): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select({ settings: workspaces.datevSettings }).from(workspaces).where(eq(workspaces.id, acting.workspaceId)).for('update');
      if (!before) return;
      await tx.update(workspaces).set({ datevSettings: settings, updatedAt: sql`now()` }).where(eq(workspaces.id, acting.workspaceId));
      const fields = changedDatevSettings(before.settings ?? DEFAULT_DATEV_SETTINGS, settings);
      if (fields.length > 0 || before.settings === null) await recordAudit(tx, actedBy(acting, 'settings.changed', { setting: 'datev', fields }));
    });
  }
}
