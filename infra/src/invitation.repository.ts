import { OPEN_INVITATIONS_MAX, type AccountFacts, type AssignableRole } from '@receipts/common';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from './audit.repository.js';
import type { Database, Executor } from './db/database.js';
import { users, workspaceInvitations, workspaceMembers, workspaces, type WorkspaceInvitationRow } from './db/schema.js';
import { lockWorkspace } from './member.repository.js';

/** An open invitation as the members page lists it, with the address of who sent it. */
export type OpenInvitation = Pick<WorkspaceInvitationRow, 'id' | 'email' | 'role' | 'createdAt' | 'expiresAt'> & { invitedBy: string | null };

/** What the person a link was mailed to is shown before accepting. */
export interface InvitationPreviewRow {
  workspace: string;
  inviter: { name: string; email: string } | null;
  email: string;
  role: AssignableRole;
  expiresAt: Date;
}

export type AcceptOutcome =
  | { joined: { workspaceId: string; role: AssignableRole } }
  | { refused: 'not-found' | 'already-member' }
  /** Not the invited address, or not yet confirmed: the invited address, for the message. */
  | { refused: 'wrong-address' | 'unconfirmed'; invited: string };

/** Neither accepted nor revoked: expired ones too, which a resend opens again. */
const open = and(isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt));
/** Open and unexpired: a link that may still be followed. */
const usable = (tokenHash: string, now: Date) => and(eq(workspaceInvitations.tokenHash, tokenHash), open, gt(workspaceInvitations.expiresAt, now));
const inviter = alias(users, 'inviter');

/**
 * Invitations into workspaces: made, listed, revoked and sent again by those who manage members,
 * previewed and accepted through their mailed link. Tokens are stored only as their SHA-256.
 * Each change records itself in the audit trail in its own transaction.
 */
export class InvitationRepository {
  constructor(private readonly db: Database) {}

  /**
   * A new invitation, replacing an open one to the same address (whose link stops working); a
   * refusal when the address is a member already or the workspace has too many open.
   */
  async create(input: {
    workspaceId: string;
    email: string;
    role: AssignableRole;
    tokenHash: string;
    invitedBy: string;
    expiresAt: Date;
  }): Promise<WorkspaceInvitationRow | { refused: 'not-found' | 'already-member' | 'too-many' }> {
    return this.db.transaction(async (tx) => {
      if (!(await lockWorkspace(tx, input.workspaceId))) return { refused: 'not-found' as const };
      const [member] = await tx
        .select({ userId: workspaceMembers.userId })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, input.workspaceId), eq(users.email, input.email)));
      if (member) return { refused: 'already-member' as const };
      const others = and(eq(workspaceInvitations.workspaceId, input.workspaceId), open, sql`${workspaceInvitations.email} <> ${input.email}`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(workspaceInvitations).where(others);
      if (Number(n) >= OPEN_INVITATIONS_MAX) return { refused: 'too-many' as const };
      const now = new Date();
      await tx
        .update(workspaceInvitations)
        .set({ revokedAt: now })
        .where(and(eq(workspaceInvitations.workspaceId, input.workspaceId), eq(workspaceInvitations.email, input.email), open));
      const [created] = await tx.insert(workspaceInvitations).values(input).returning();
      await recordAudit(tx, { workspaceId: input.workspaceId, actorId: input.invitedBy, action: 'member.invited', subject: input.email, detail: { role: input.role, invitationId: created!.id } });
      return created!;
    });
  }

  /** The workspace's open invitations, newest first. */
  async listOpen(workspaceId: string): Promise<OpenInvitation[]> {
    return this.db
      .select({
        id: workspaceInvitations.id,
        email: workspaceInvitations.email,
        role: workspaceInvitations.role,
        createdAt: workspaceInvitations.createdAt,
        expiresAt: workspaceInvitations.expiresAt,
        invitedBy: inviter.email,
      })
      .from(workspaceInvitations)
      .leftJoin(inviter, eq(inviter.id, workspaceInvitations.invitedBy))
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), open))
      .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id));
  }

  /** Revokes an open invitation of the workspace: its link stops working. False when there is none such. */
  async revoke(workspaceId: string, id: string, actorId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [revoked] = await tx
        .update(workspaceInvitations)
        .set({ revokedAt: new Date() })
        .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId), open))
        .returning();
      if (!revoked) return false;
      await recordAudit(tx, { workspaceId, actorId, action: 'invitation.revoked', subject: revoked.email, detail: { invitationId: id, role: revoked.role } });
      return true;
    });
  }

  /** Gives an open invitation a new token and expiry (the old link dies with its hash); null when there is none such. */
  async reissue(workspaceId: string, id: string, actorId: string, tokenHash: string, expiresAt: Date): Promise<WorkspaceInvitationRow | null> {
    return this.db.transaction(async (tx) => {
      const [reissued] = await tx
        .update(workspaceInvitations)
        .set({ tokenHash, expiresAt, invitedBy: actorId })
        .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId), open))
        .returning();
      if (!reissued) return null;
      await recordAudit(tx, { workspaceId, actorId, action: 'member.invited', subject: reissued.email, detail: { role: reissued.role, invitationId: id, resent: true } });
      return reissued;
    });
  }

  /** What a usable link invites to; null for any other token (unknown, used, revoked, expired). */
  async preview(tokenHash: string, now = new Date()): Promise<InvitationPreviewRow | null> {
    const [row] = await this.db
      .select({
        workspace: workspaces.name,
        inviterName: inviter.username,
        inviterEmail: inviter.email,
        email: workspaceInvitations.email,
        role: workspaceInvitations.role,
        expiresAt: workspaceInvitations.expiresAt,
      })
      .from(workspaceInvitations)
      .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
      .leftJoin(inviter, eq(inviter.id, workspaceInvitations.invitedBy))
      .where(usable(tokenHash, now));
    if (!row) return null;
    const { inviterName, inviterEmail, ...rest } = row;
    return { ...rest, inviter: inviterName !== null && inviterEmail !== null ? { name: inviterName, email: inviterEmail } : null };
  }

  /**
   * Accepts a usable invitation for the account `userId`, in one transaction: the invitation and
   * the account are locked, the account's address (as of now) must be the invited one and
   * confirmed (`confirmed` decides), then the membership is added and the invitation marked
   * used, so a link joins one account once. Nothing is written on a refusal.
   */
  async accept(tokenHash: string, userId: string, confirmed: (account: AccountFacts) => boolean, now = new Date()): Promise<AcceptOutcome> {
    return this.db.transaction(async (tx): Promise<AcceptOutcome> => {
      const [invitation] = await tx.select().from(workspaceInvitations).where(usable(tokenHash, now)).for('update');
      if (!invitation) return { refused: 'not-found' };
      const [account] = await tx
        .select({ email: users.email, userType: users.userType, emailVerifiedAt: users.emailVerifiedAt, createdBeforeVerification: users.createdBeforeVerification })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!account) return { refused: 'not-found' };
      if (account.email !== invitation.email) return { refused: 'wrong-address', invited: invitation.email };
      if (!confirmed(account)) return { refused: 'unconfirmed', invited: invitation.email };
      const { workspaceId, role } = invitation;
      const [joined] = await tx.insert(workspaceMembers).values({ workspaceId, userId, role }).onConflictDoNothing().returning({ userId: workspaceMembers.userId });
      if (!joined) return { refused: 'already-member' };
      await tx.update(workspaceInvitations).set({ acceptedAt: now }).where(eq(workspaceInvitations.id, invitation.id));
      await recordAudit(tx, { workspaceId, actorId: userId, action: 'member.joined', subject: account.email, detail: { role, invitationId: invitation.id } });
      return { joined: { workspaceId, role } };
    });
  }
}
