import { engineChoices, ratesCurrencies, type ClientConfig } from '@receipts/common';
import type { Config } from '@receipts/infra';
import { Router } from 'express';

type ClientSettings = Pick<Config, 'ANALYTICS_MEASUREMENT_ID' | 'ocrEngine' | 'DOCUMENTAI_PROJECT_ID' | 'DOCUMENTAI_PROCESSOR_ID' | 'VLM_BASE_URL' | 'VLM_MODEL' | 'exchangeRates'>;

/** GET /api/config: read once by the web app; Stripe's publishable key comes with GET /api/plans. */
export function clientConfigRoutes(config: ClientSettings): Router {
  const router = Router();
  const body: ClientConfig = {
    analyticsMeasurementId: config.ANALYTICS_MEASUREMENT_ID ?? null,
    engines: engineChoices(config, config.ocrEngine),
    convertibleCurrencies: config.exchangeRates ? ratesCurrencies(config.exchangeRates) : [],
  };
  router.get('/config', (_req, res) => {
    res.json(body);
  });
  return router;
}
