import type { ClientConfig } from '@receipts/common';
import type { Config } from '@receipts/infra';
import { Router } from 'express';

/** GET /api/config: read once by the web app; Stripe's publishable key comes with GET /api/plans. */
export function clientConfigRoutes(config: Pick<Config, 'ANALYTICS_MEASUREMENT_ID'>): Router {
  const router = Router();
  const body: ClientConfig = { analyticsMeasurementId: config.ANALYTICS_MEASUREMENT_ID ?? null };
  router.get('/config', (_req, res) => {
    res.json(body);
  });
  return router;
}
