import { clientConfigSchema, engineChoices, ratesCurrencies, type ClientConfig } from '@receipts/common';
import type { Config } from '@receipts/infra';
import { Router } from 'express';
import { route } from './route-spec.js';

type ClientSettings = Pick<Config, 'ANALYTICS_MEASUREMENT_ID' | 'ocrEngine' | 'DOCUMENTAI_PROJECT_ID' | 'DOCUMENTAI_PROCESSOR_ID' | 'VLM_BASE_URL' | 'VLM_MODEL' | 'exchangeRates'>;

/** GET /api/config: read once by the web app; Stripe's publishable key comes with GET /api/plans. */
export function clientConfigRoutes(config: ClientSettings): Router {
  const router = Router();
  const body: ClientConfig = {
    analyticsMeasurementId: config.ANALYTICS_MEASUREMENT_ID ?? null,
    engines: engineChoices(config, config.ocrEngine),
    convertibleCurrencies: config.exchangeRates ? ratesCurrencies(config.exchangeRates) : [],
  };
  router.get(
    '/config',
    route({
      summary: 'The web app’s settings for this deployment',
      description: 'Analytics, the engines a receipt can be read again with, the currencies an export can convert to. No secrets.',
      tag: 'config',
      scope: 'public',
      caller: 'anyone',
      answers: { 200: clientConfigSchema },
    }),
    (_req, res) => {
      res.json(body);
    },
  );
  return router;
}
