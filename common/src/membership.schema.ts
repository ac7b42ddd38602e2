import { z } from 'zod';
import { emailAddressSchema } from './auth.schema.js';
import { assignableRoleSchema, workspaceRoleSchema, type WorkspaceRole } from './workspace-policy.rule.js';

/** How long an invitation's link works. */
export const INVITATION_TTL_DAYS = 7;
/** Invitations a workspace may have open at once: a team's worth, and a bound on the mail one workspace can send. */
export const OPEN_INVITATIONS_MAX = 50;

/** A role's name, where there is room for one word (the switcher, the members list); WORKSPACE_ROLE_LABELS says what it is for. */
export const WORKSPACE_ROLE_NAMES: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  accountant: 'Accountant',
  member: 'Member',
};

/** Messages of members and invitations, said by the api and shown by the web. */
export const MEMBERSHIP_MESSAGES = {
  memberNotFound: 'No such member of this workspace.',
  invitationNotFound: 'No such open invitation in this workspace.',
  /** Unknown, used, revoked and expired links alike: the answer says nothing about which. */
  linkInvalid: 'This invitation link is invalid, used, revoked or has expired. Ask for a new one.',
  alreadyMember: 'That address is already a member of this workspace.',
  youAreMember: 'You are already a member of this workspace.',
  tooManyOpen: `A workspace has at most ${OPEN_INVITATIONS_MAX} open invitations. Revoke some first.`,
  wrongAddress: (invited: string) => `This invitation is for ${invited}. Sign in or register with that address to accept it.`,
  confirmFirst: (invited: string) => `Confirm your address ${invited} first: follow the link we e-mailed you, then accept the invitation.`,
  ownerUntouchable: 'The owner’s role changes only when they hand the workspace over, and the owner cannot be removed.',
  notAMemberToTransfer: 'Hand the workspace to someone who is already a member of it.',
  alreadyOwner: 'You own this workspace already.',
  ownerMustTransfer: 'You own a team workspace that has other members. Hand it to one of them, or delete it, before deleting your account.',
  invited: (email: string) => `Invitation sent to ${email}.`,
  resent: (email: string) => `A new invitation was sent to ${email}; the earlier link no longer works.`,
  deleted: 'The workspace and everything in it were deleted.',
  signInToAccept: (invited: string) => `Sign in or register with ${invited} to accept.`,
  confirmLeave: (workspace: string) => `Leave ${workspace}? Your receipts stay with it, and you can come back only with a new invitation.`,
  confirmRemove: (email: string) => `Remove ${email}? Their receipts stay with the workspace; their intake address into it stops working.`,
  confirmTransfer: (email: string) => `Hand the workspace to ${email}? They become its owner and you an admin; only they can hand it back.`,
  confirmDelete: (workspace: string) => `Delete ${workspace} and every receipt, upload and setting in it, for every member? This cannot be undone.`,
} as const;

/** POST /api/workspaces/current/invitations. */
export const inviteMemberSchema = z.object({ email: emailAddressSchema, role: assignableRoleSchema }).strict();
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;

/** PATCH /api/workspaces/current/members/:userId: the role, and nothing else (ownership moves by a transfer). */
export const changeMemberRoleSchema = z.object({ role: assignableRoleSchema }).strict();
export type ChangeMemberRoleInput = z.infer<typeof changeMemberRoleSchema>;

/** POST /api/workspaces/current/ownership: the member who becomes the owner. */
export const transferOwnershipSchema = z.object({ userId: z.string().uuid() }).strict();

export const memberParamsSchema = z.object({ userId: z.string().uuid() });
export const invitationParamsSchema = z.object({ id: z.string().uuid() });
/** A link's token: anything of a sane length is looked up (and, unless it is one of ours, not found). */
export const invitationTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** A member as the members page lists them. */
export const memberViewSchema = z.object({
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  role: workspaceRoleSchema,
  joinedAt: z.string(),
});
export type MemberView = z.infer<typeof memberViewSchema>;

export const memberListSchema = z.object({ members: z.array(memberViewSchema) });
export type MemberList = z.infer<typeof memberListSchema>;

/** An open invitation as the members page lists it (never its token). */
export const invitationViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: assignableRoleSchema,
  /** Who sent it: their address; null once their account is gone. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Past its seven days: resend it for a new link. */
  expired: z.boolean(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const invitationListSchema = z.object({ invitations: z.array(invitationViewSchema) });
export type InvitationList = z.infer<typeof invitationListSchema>;

/** GET /api/invitations/:token: what the invited person is shown before accepting. */
export const invitationPreviewSchema = z.object({
  workspace: z.string(),
  /** Who invited: name and address; null once their account is gone. */
  invitedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
  /** The address the invitation is for: only an account with it, confirmed, may accept. */
  email: z.string(),
  role: assignableRoleSchema,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;
