import { spendingReportQuerySchema, spendingReportSchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { SpendingReportService } from './spending-report.service.js';

/** GET /api/workspaces/current/reports: the spending report of the workspace a request acts in. */
export function spendingReportRoutes(reports: SpendingReportService): Router {
  const router = Router();
  const report = route({
    summary: 'The workspace’s spending per member, category, merchant and month',
    description: 'Over a period of receipt dates (`from`, `to`), optionally one category, currency or member; money is never added across currencies.',
    tag: 'reports',
    scope: 'receipts:read',
    caller: 'account',
    workspace: 'reports:read',
    receive: [requireUser],
    query: spendingReportQuerySchema,
    answers: { 200: spendingReportSchema },
  });
  router.get('/current/reports', report, async (req, res) => {
    res.json(await reports.report(req.owner, req.query));
  });
  return router;
}
