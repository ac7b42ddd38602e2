import { createRequire } from 'node:module';
import { countryFromAcceptLanguage, currencyForCountry } from '@receipts/common';
import { Router } from 'express';

const require = createRequire(import.meta.url);
// An offline database shipped in the npm package: no third-party call from server or browser.
const geoip = require('geoip-country') as { lookup(ip: string): { country: string } | null };

/** GET /api/detect-currency: the client address's country, else Accept-Language's region, else USD. */
export function currencyRoutes(): Router {
  const router = Router();
  router.get('/detect-currency', (req, res) => {
    const fromAddress = req.ip ? (geoip.lookup(req.ip.replace(/^::ffff:/, ''))?.country ?? null) : null;
    const country = (currencyForCountry(fromAddress) ? fromAddress : null) ?? countryFromAcceptLanguage(req.get('accept-language'));
    res.json({ currency: currencyForCountry(country) ?? 'USD', country });
  });
  return router;
}
