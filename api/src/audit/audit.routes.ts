import { auditPageSchema, auditQuerySchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { AuditService } from './audit.service.js';

/**
 * /api/workspaces/current/audit: who did what, and when, in the workspace requests act in; its
 * owners and admins read it. Closed to tokens: the trail is read in the app.
 */
export function auditRoutes(service: AuditService): Router {
  const router = Router();

  const list = route({
    summary: 'The workspace’s audit trail, newest first',
    description: 'Who uploaded, corrected, accepted, deleted, exported or changed a setting, and when. Pass `next` as `cursor` for the page after; filter by `action` and by `actor` (a member’s id, from `actors`).',
    tag: 'workspaces',
    scope: null,
    caller: 'account',
    workspace: 'audit:read',
    receive: [requireUser],
    query: auditQuerySchema,
    answers: { 200: auditPageSchema },
  });
  router.get('/current/audit', list, async (req, res) => {
    res.json(await service.page(workspaceOf(req).id, req.query));
  });

  return router;
}
