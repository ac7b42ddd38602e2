import { createRequire } from 'node:module';
import { countryFromAcceptLanguage, currencyForCountry, detectedCurrencySchema } from '@receipts/common';
import { Router } from 'express';
import { route } from '../route-spec.js';

const require = createRequire(import.meta.url);
// An offline database shipped in the npm package: no third-party call from server or browser.
const geoip = require('geoip-country') as { lookup(ip: string): { country: string } | null };

/** GET /api/detect-currency: the client address's country, else Accept-Language's region, else USD. */
export function currencyRoutes(): Router {
  const router = Router();
  router.get(
    '/detect-currency',
    route({
      summary: 'The currency a visitor probably pays in',
      description: 'By the country of the client’s address, else the region of its Accept-Language, else USD.',
      tag: 'currency',
      scope: 'public',
      caller: 'anyone',
      headers: { 'Accept-Language': 'The browser’s languages; a region (en-GB) names a country.' },
      answers: { 200: detectedCurrencySchema },
    }),
    (req, res) => {
      const fromAddress = req.ip ? (geoip.lookup(req.ip.replace(/^::ffff:/, ''))?.country ?? null) : null;
      const country = (currencyForCountry(fromAddress) ? fromAddress : null) ?? countryFromAcceptLanguage(req.get('accept-language'));
      res.json({ currency: currencyForCountry(country) ?? 'USD', country });
    },
  );
  return router;
}
