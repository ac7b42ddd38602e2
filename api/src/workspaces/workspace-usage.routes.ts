import { workspaceUsageSchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { WorkspaceUsageService } from './workspace-usage.service.js';

/** GET /api/workspaces/current/usage: the workspace's quota and its use per member this period. */
export function workspaceUsageRoutes(usage: WorkspaceUsageService): Router {
  const router = Router();
  const read = route({
    summary: 'The workspace’s quota and what each member used of it this period',
    description: 'Owners, admins and accountants see every member’s use; a member sees their own.',
    tag: 'workspaces',
    scope: 'receipts:read',
    caller: 'account',
    workspace: 'receipts:own',
    receive: [requireUser],
    answers: { 200: workspaceUsageSchema },
  });
  router.get('/current/usage', read, async (req, res) => {
    res.json(await usage.usage(req.owner));
  });
  return router;
}
