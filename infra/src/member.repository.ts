import { workspaceAllows, type AssignableRole, type WorkspaceAction, type WorkspaceRole } from '@receipts/common';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from './audit.repository.js';
import type { Database, Executor } from './db/database.js';
import { intakeAddresses, users, workspaceMembers, workspaces } from './db/schema.js';

/** A member as the members page shows them. */
export interface MemberRow {
  userId: string;
  email: string;
  username: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/**
 * Why a change of members was not made (nothing was written): no such member, the actor's role
 * does not allow it, the member is the owner (whom only a transfer changes), or the owner handing
 * the workspace to themselves.
 */
export type MemberRefusal = 'not-found' | 'forbidden' | 'owner' | 'already-owner';

const memberColumns = { userId: users.id, email: users.email, username: users.username, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt };

/**
 * Locks the workspace's row for the rest of the transaction, so changes of its members happen one
 * after another (two transfers at once cannot both pass their checks); whether it is personal, or
 * null when it is gone.
 */
export async function lockWorkspace(tx: Executor, workspaceId: string): Promise<{ personal: boolean } | null> {
  const [row] = await tx.select({ personalOf: workspaces.personalOf }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  return row ? { personal: row.personalOf !== null } : null;
}

/** A member of the workspace as of now (inside the caller's transaction); null when not one. */
async function memberOf(tx: Executor, workspaceId: string, userId: string): Promise<MemberRow | null> {
  const [row] = await tx
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row ?? null;
}

/** Takes a member out of a workspace with their intake address into it; their uploads stay the workspace's. */
async function dropMember(tx: Executor, workspaceId: string, userId: string): Promise<void> {
  await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  await tx.delete(intakeAddresses).where(and(eq(intakeAddresses.workspaceId, workspaceId), eq(intakeAddresses.userId, userId)));
}

/**
 * Changes of a workspace's members: roles, removal, leaving, handing over. Each runs in one
 * transaction that locks the workspace, reads the roles as they are then, asks the policy
 * (workspaceAllows) and records the act in the audit trail, so the check, the change and its
 * record cannot be pulled apart by a concurrent change.
 */
export class MemberRepository {
  constructor(private readonly db: Database) {}

  /**
   * The actor and the member acted on, once the workspace is locked; a refusal when the actor's
   * role (as of now) does not allow `action` on that member's.
   */
  private async parties(tx: Executor, workspaceId: string, actorId: string, targetId: string, action: WorkspaceAction): Promise<{ refused: MemberRefusal } | { actor: MemberRow; target: MemberRow }> {
    const workspace = await lockWorkspace(tx, workspaceId);
    const actor = workspace && (await memberOf(tx, workspaceId, actorId));
    if (!workspace || !actor) return { refused: 'forbidden' };
    const target = await memberOf(tx, workspaceId, targetId);
    if (!target) return { refused: 'not-found' };
    const { personal } = workspace;
    if (!workspaceAllows(actor.role, action, { personal })) return { refused: 'forbidden' };
    // Whom one manages counts too: everyone but the owner, whom only a transfer changes.
    if (!workspaceAllows(actor.role, action, { personal, targetRole: target.role })) return { refused: 'owner' };
    return { actor, target };
  }

  /** Gives a member another role (never the owner's, never to the owner). */
  async changeRole(workspaceId: string, actorId: string, targetId: string, role: AssignableRole): Promise<MemberRow | { refused: MemberRefusal }> {
    return this.db.transaction(async (tx) => {
      const parties = await this.parties(tx, workspaceId, actorId, targetId, 'members:manage');
      if ('refused' in parties) return parties;
      const { target } = parties;
      if (target.role === role) return target;
      await tx.update(workspaceMembers).set({ role, updatedAt: new Date() }).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, targetId)));
      await recordAudit(tx, { workspaceId, actorId, action: 'member.role-changed', subject: target.email, detail: { userId: targetId, from: target.role, to: role } });
      return { ...target, role };
    });
  }

  /** Removes a member (not the owner): their receipts stay with the workspace, their intake address into it goes. */
  async remove(workspaceId: string, actorId: string, targetId: string): Promise<MemberRow | { refused: MemberRefusal }> {
    return this.db.transaction(async (tx) => {
      const parties = await this.parties(tx, workspaceId, actorId, targetId, 'members:manage');
      if ('refused' in parties) return parties;
      await dropMember(tx, workspaceId, targetId);
      await recordAudit(tx, { workspaceId, actorId, action: 'member.removed', subject: parties.target.email, detail: { userId: targetId, role: parties.target.role } });
      return parties.target;
    });
  }

  /** The member leaves (the owner cannot: they hand the workspace over or delete it). */
  async leave(workspaceId: string, userId: string): Promise<MemberRow | { refused: MemberRefusal }> {
    return this.db.transaction(async (tx) => {
      const parties = await this.parties(tx, workspaceId, userId, userId, 'workspace:leave');
      if ('refused' in parties) return parties;
      await dropMember(tx, workspaceId, userId);
      await recordAudit(tx, { workspaceId, actorId: userId, action: 'member.left', subject: parties.actor.email, detail: { role: parties.actor.role } });
      return parties.actor;
    });
  }

  /**
   * Hands the workspace to another member: the owner becomes an admin, then the member the owner,
   * in that order, so the one-owner index holds at every statement.
   */
  async transferOwnership(workspaceId: string, ownerId: string, targetId: string): Promise<MemberRow | { refused: MemberRefusal }> {
    return this.db.transaction(async (tx) => {
      const parties = await this.parties(tx, workspaceId, ownerId, targetId, 'ownership:transfer');
      if ('refused' in parties) return parties;
      const { target } = parties;
      if (targetId === ownerId) return { refused: 'already-owner' as const };
      const now = new Date();
      const inWorkspace = (userId: string) => and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId));
      await tx.update(workspaceMembers).set({ role: 'admin', updatedAt: now }).where(inWorkspace(ownerId));
      await tx.update(workspaceMembers).set({ role: 'owner', updatedAt: now }).where(inWorkspace(targetId));
      await recordAudit(tx, { workspaceId, actorId: ownerId, action: 'ownership.transferred', subject: target.email, detail: { userId: targetId, formerRole: target.role } });
      return { ...target, role: 'owner' as const };
    });
  }
}
