import { spendingQuerySchema } from '@receipts/common';
import { Router } from 'express';
import { validate } from '../validate.middleware.js';
import type { SpendingService } from './spending.service.js';

/**
 * GET /api/receipts/spending?q&from&to&category&currency&valid: the library's filters, answered
 * with `spendingSchema` (common/src/spending.schema.ts). Mounted before the library's
 * `/receipts/:id`, which would take "spending" for an id.
 */
export function spendingRoutes(spending: SpendingService): Router {
  const router = Router();
  router.get('/receipts/spending', validate({ query: spendingQuerySchema }), async (req, res) => {
    res.json(await spending.summary(req.owner, req.query));
  });
  return router;
}
