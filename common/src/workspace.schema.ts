import { z } from 'zod';
import { safeText } from './control-characters.rule.js';
import { workspaceRoleSchema, type WorkspaceRole } from './workspace-policy.rule.js';

export const WORKSPACE_NAME_MAX = 80;
/** Team workspaces one account may own: enough for a bookkeeper's clients, a bound on what one account can make. */
export const OWNED_WORKSPACES_MAX = 20;

/** What each role is for, as the members page and the invitation form explain it. */
export const WORKSPACE_ROLE_LABELS: Record<WorkspaceRole, string> = {
  owner: 'Owner: billing, deleting the workspace, handing it over',
  admin: 'Admin: members and settings',
  accountant: 'Accountant: reviews, approves and exports every receipt',
  member: 'Member: uploads and submits their own receipts',
};

/** Messages of workspaces, said by the api and shown by the web. */
export const WORKSPACE_MESSAGES = {
  nameRequired: 'Name the workspace.',
  nameTooLong: `A workspace name is at most ${WORKSPACE_NAME_MAX} characters.`,
  notFound: 'No such workspace, or you are not a member of it.',
  /** 403 from a route the caller's role in the workspace does not allow (route-spec.ts). */
  roleForbids: 'Your role in this workspace does not allow this.',
  tooMany: `An account owns at most ${OWNED_WORKSPACES_MAX} workspaces. Delete one you no longer use first.`,
  confirmBeforeCreating: 'Confirm your e-mail address before creating a workspace: follow the link we e-mailed you, or send a new one from your dashboard.',
} as const;

/** The header a script (or any client) names the workspace a request acts in by; without it, the one last switched to. */
export const WORKSPACE_HEADER = 'X-Workspace-Id';

export const workspaceNameSchema = safeText({ message: WORKSPACE_MESSAGES.nameRequired })
  .trim()
  .min(1, WORKSPACE_MESSAGES.nameRequired)
  .max(WORKSPACE_NAME_MAX, WORKSPACE_MESSAGES.nameTooLong);

/** POST /api/workspaces and PATCH /api/workspaces/current. */
export const workspaceNameBodySchema = z.object({ name: workspaceNameSchema }).strict();

/** PUT /api/workspaces/current: the workspace to act in from now on. */
export const switchWorkspaceSchema = z.object({ workspaceId: z.string().uuid() }).strict();

/** A workspace as the switcher lists it. */
export const workspaceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  personal: z.boolean(),
  role: workspaceRoleSchema,
  members: z.number().int(),
});
export type WorkspaceView = z.infer<typeof workspaceViewSchema>;

/** GET /api/workspaces: every workspace of the account, and the one requests act in now. */
export const workspaceListSchema = z.object({
  workspaces: z.array(workspaceViewSchema),
  currentId: z.string(),
});
export type WorkspaceList = z.infer<typeof workspaceListSchema>;
