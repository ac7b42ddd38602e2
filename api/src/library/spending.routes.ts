import { spendingQuerySchema, spendingSchema } from '@receipts/common';
import { Router } from 'express';
import { route } from '../route-spec.js';
import type { SpendingService } from './spending.service.js';

/**
 * GET /api/receipts/spending?q&from&to&category&currency&valid: the library's filters, answered
 * with `spendingSchema` (common/src/spending.schema.ts). Mounted before the library's
 * `/receipts/:id`, which would take "spending" for an id.
 */
export function spendingRoutes(spending: SpendingService): Router {
  const router = Router();
  const summary = route({ summary: 'What your receipts add up to, per currency, category and month', tag: 'receipts', caller: 'anyone', scope: 'receipts:read', workspace: 'receipts:own', query: spendingQuerySchema, answers: { 200: spendingSchema } });
  router.get('/receipts/spending', summary, async (req, res) => {
    res.json(await spending.summary(req.owner, req.query));
  });
  return router;
}
