import { z } from 'zod';

/**
 * A member's role in a workspace. owner: billing, deletion, ownership; admin: members and
 * settings; accountant: sees, reviews, approves and exports every receipt; member: uploads,
 * sees and submits their own.
 */
export const WORKSPACE_ROLES = ['owner', 'admin', 'accountant', 'member'] as const;
export const workspaceRoleSchema = z.enum(WORKSPACE_ROLES);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

/** The roles an invitation or a role change may give: ownership only moves by a transfer. */
export const ASSIGNABLE_ROLES = ['admin', 'accountant', 'member'] as const;
export const assignableRoleSchema = z.enum(ASSIGNABLE_ROLES);
export type AssignableRole = z.infer<typeof assignableRoleSchema>;

/** Everything a workspace's member may be allowed to do; each route declares the one it needs. */
export const WORKSPACE_ACTIONS = [
  /** Upload, and see, correct and delete one's own receipts. */
  'receipts:own',
  /** See, correct, accept and delete every receipt of the workspace. */
  'receipts:all',
  /** Submit one's own receipts (or a report of them) for approval. */
  'receipts:submit',
  /** Approve or reject a submitted receipt or report. */
  'receipts:approve',
  /** Download the workspace's workbooks and import files. */
  'export',
  /** The workspace's spending reports: per member, category, merchant and month. */
  'reports:read',
  /** See who is in the workspace and the invitations out. */
  'members:read',
  /** Invite, remove and change the role of members (never the owner). */
  'members:manage',
  /** The workspace's name, categories, learned rules, DATEV accounts and intake. */
  'settings:change',
  /** The workspace's subscription and invoices. */
  'billing:manage',
  /** Hand the workspace to another member. */
  'ownership:transfer',
  /** Delete the workspace and everything in it. */
  'workspace:delete',
  /** Leave the workspace. */
  'workspace:leave',
  /** Read who did what, and when. */
  'audit:read',
] as const;
export type WorkspaceAction = (typeof WORKSPACE_ACTIONS)[number];

/** What else an action's answer depends on. */
export interface WorkspaceContext {
  /** The account's own workspace: no members but its owner, so nothing to submit, approve, invite or leave. */
  personal: boolean;
  /** The receipt acted on was uploaded by the one acting (approving it is never allowed). */
  ownReceipt?: boolean;
  /** The member a members:manage action is about: an admin manages everyone but the owner. */
  targetRole?: WorkspaceRole;
}

const GRANTS: Record<WorkspaceAction, readonly WorkspaceRole[]> = {
  'receipts:own': ['owner', 'admin', 'accountant', 'member'],
  'receipts:all': ['owner', 'admin', 'accountant'],
  'receipts:submit': ['member'],
  'receipts:approve': ['owner', 'admin', 'accountant'],
  export: ['owner', 'admin', 'accountant'],
  'reports:read': ['owner', 'admin', 'accountant'],
  'members:read': ['owner', 'admin', 'accountant', 'member'],
  'members:manage': ['owner', 'admin'],
  'settings:change': ['owner', 'admin'],
  'billing:manage': ['owner'],
  'ownership:transfer': ['owner'],
  'workspace:delete': ['owner'],
  'workspace:leave': ['admin', 'accountant', 'member'],
  'audit:read': ['owner', 'admin'],
};

/** Actions that make sense only where others can be members. */
const TEAM_ONLY: ReadonlySet<WorkspaceAction> = new Set([
  'receipts:submit',
  'receipts:approve',
  'members:manage',
  'ownership:transfer',
  'workspace:delete',
  'workspace:leave',
]);

/** The one answer to "may this role do this here?", for every route and every screen. */
export function workspaceAllows(role: WorkspaceRole, action: WorkspaceAction, context: WorkspaceContext): boolean {
  if (context.personal && TEAM_ONLY.has(action)) return false;
  if (!GRANTS[action].includes(role)) return false;
  if (action === 'receipts:approve' && context.ownReceipt) return false;
  if (action === 'members:manage' && context.targetRole === 'owner') return false;
  return true;
}

/**
 * Whether a receipt waits for an approver before it counts: a member's receipts in a team
 * workspace. The people who approve need no one to approve theirs, and a personal workspace has
 * no one else.
 */
export function receiptNeedsApproval(uploaderRole: WorkspaceRole, personal: boolean): boolean {
  return !personal && !workspaceAllows(uploaderRole, 'receipts:approve', { personal });
}

/** The workspace a signed-in request acts in (resolved once per request), with the member's role in it. */
export interface WorkspaceScope {
  id: string;
  role: WorkspaceRole;
  personal: boolean;
}

/** An account's own workspace: its id is the account's, and the account owns it. */
export function personalWorkspace(userId: string): WorkspaceScope {
  return { id: userId, role: 'owner', personal: true };
}

/** The workspace an account acts in: the one resolved for its request, else its own; none for an anonymous visitor. */
export function actingWorkspace(owner: { userId: string | null; workspace?: WorkspaceScope | null }): WorkspaceScope | null {
  return owner.workspace ?? (owner.userId ? personalWorkspace(owner.userId) : null);
}
