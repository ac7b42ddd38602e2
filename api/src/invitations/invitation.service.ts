import {
  INVITATION_TTL_DAYS,
  isEmailVerified,
  MEMBERSHIP_MESSAGES,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLE_LABELS,
  type InvitationList,
  type InvitationPreview,
  type InvitationView,
  type InviteMemberInput,
} from '@receipts/common';
import type { InvitationRepository, Mailer, OpenInvitation, UserRow, WorkspaceInvitationRow } from '@receipts/infra';
import { linkTokenHash, newLinkToken } from '../auth/link-token.js';
import { HttpError, notFound } from '../http-error.js';

const TTL_MS = INVITATION_TTL_DAYS * 24 * 3600_000;

const view = (invitation: OpenInvitation, now = new Date()): InvitationView => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  invitedBy: invitation.invitedBy,
  createdAt: invitation.createdAt.toISOString(),
  expiresAt: invitation.expiresAt.toISOString(),
  expired: invitation.expiresAt <= now,
});

/** The workspace an invitation is into, as its mail names it. */
export interface InvitingWorkspace {
  id: string;
  name: string;
}

/**
 * Invitations by e-mail: a single-use link (its token stored only hashed) that works for seven
 * days, for the address it was sent to once that address is confirmed. The methods that mail
 * take `links`, what the mail's link starts with (linkBase of the request that caused it).
 */
export class InvitationService {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly mailer: Mailer,
    private readonly adminEmails: string[],
  ) {}

  async invite(inviter: UserRow, workspace: InvitingWorkspace, input: InviteMemberInput, links: string): Promise<InvitationView> {
    const { token, tokenHash } = newLinkToken();
    const made = await this.invitations.create({ workspaceId: workspace.id, email: input.email, role: input.role, tokenHash, invitedBy: inviter.id, expiresAt: new Date(Date.now() + TTL_MS) });
    if ('refused' in made) {
      if (made.refused === 'not-found') throw notFound(WORKSPACE_MESSAGES.notFound);
      throw new HttpError(409, 'CONFLICT', made.refused === 'already-member' ? MEMBERSHIP_MESSAGES.alreadyMember : MEMBERSHIP_MESSAGES.tooManyOpen);
    }
    await this.send(made, inviter, workspace, token, links);
    return view({ ...made, invitedBy: inviter.email });
  }

  async list(workspaceId: string): Promise<InvitationList> {
    const now = new Date();
    return { invitations: (await this.invitations.listOpen(workspaceId)).map((row) => view(row, now)) };
  }

  async revoke(actorId: string, workspaceId: string, id: string): Promise<void> {
    if (!(await this.invitations.revoke(workspaceId, id, actorId))) throw notFound(MEMBERSHIP_MESSAGES.invitationNotFound);
  }

  /** Sends an open invitation again with a new link and seven days more; the earlier link stops working. */
  async resend(inviter: UserRow, workspace: InvitingWorkspace, id: string, links: string): Promise<InvitationView> {
    const { token, tokenHash } = newLinkToken();
    const reissued = await this.invitations.reissue(workspace.id, id, inviter.id, tokenHash, new Date(Date.now() + TTL_MS));
    if (!reissued) throw notFound(MEMBERSHIP_MESSAGES.invitationNotFound);
    await this.send(reissued, inviter, workspace, token, links);
    return view({ ...reissued, invitedBy: inviter.email });
  }

  /** What a link invites to; 404 alike for every token that is not a usable one. */
  async preview(token: string): Promise<InvitationPreview> {
    const found = await this.invitations.preview(linkTokenHash(token));
    if (!found) throw notFound(MEMBERSHIP_MESSAGES.linkInvalid);
    return { workspace: found.workspace, invitedBy: found.inviter, email: found.email, role: found.role, expiresAt: found.expiresAt.toISOString() };
  }

  /**
   * Joins the signed-in account to the invitation's workspace: only with the invited address,
   * confirmed; once. The id of the workspace joined.
   */
  async accept(userId: string, token: string): Promise<string> {
    const outcome = await this.invitations.accept(linkTokenHash(token), userId, (account) => isEmailVerified(account, this.adminEmails));
    if ('joined' in outcome) return outcome.joined.workspaceId;
    switch (outcome.refused) {
      case 'not-found':
        throw notFound(MEMBERSHIP_MESSAGES.linkInvalid);
      case 'wrong-address':
        throw new HttpError(403, 'FORBIDDEN', MEMBERSHIP_MESSAGES.wrongAddress(outcome.invited));
      case 'unconfirmed':
        throw new HttpError(403, 'EMAIL_NOT_VERIFIED', MEMBERSHIP_MESSAGES.confirmFirst(outcome.invited));
      case 'already-member':
        throw new HttpError(409, 'CONFLICT', MEMBERSHIP_MESSAGES.youAreMember);
    }
  }

  /** The invitation's mail, built as the account mails are (account.service.ts): what, who, the link, how long it works. */
  private async send(invitation: WorkspaceInvitationRow, inviter: UserRow, workspace: InvitingWorkspace, token: string, links: string): Promise<void> {
    await this.mailer.send({
      to: invitation.email,
      subject: `${inviter.username} invited you to ${workspace.name} on Receipts`,
      text: `${inviter.username} (${inviter.email}) invited you to join the workspace "${workspace.name}" on Receipts as ${WORKSPACE_ROLE_LABELS[invitation.role]}.\n\nAccept here (the link works once, for ${INVITATION_TTL_DAYS} days):\n${links}/invite/${token}\n\nSign in or register with this address (${invitation.email}) to accept; the address must be confirmed.\n\nIf you did not expect this invitation, ignore this e-mail: nothing happens unless you accept it.`,
    });
  }
}
