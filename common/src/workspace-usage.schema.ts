import { z } from 'zod';
import { quotaViewSchema } from './quota.rules.js';
import { workspaceRoleSchema } from './workspace-policy.rule.js';

/** The units one uploader's uploads took in the workspace this period; `userId`/`email` null once the account is gone, `role` null once they left. */
export const memberUseSchema = z.object({
  userId: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  role: workspaceRoleSchema.nullable(),
  units: z.number().int(),
});
export type MemberUse = z.infer<typeof memberUseSchema>;

/** GET /api/workspaces/current/usage: the caller's quota in the workspace, and who used what of it this period. */
export const workspaceUsageSchema = z.object({
  quota: quotaViewSchema,
  /** The workspace has a paid plan: its members' uploads share one monthly count. Else each person has their own free daily allowance. */
  shared: z.boolean(),
  /** Every uploader's use (owner, admin, accountant); else only the caller's own (a member). */
  everyone: z.boolean(),
  members: z.array(memberUseSchema),
});
export type WorkspaceUsage = z.infer<typeof workspaceUsageSchema>;
