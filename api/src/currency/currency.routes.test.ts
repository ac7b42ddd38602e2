import { describe, expect, it } from 'vitest';
import { withRouteApi } from '../../../tests/support/route-api.js';
import { Visitor } from '../../../tests/support/visitor.js';

// GET /api/detect-currency over HTTP on the real api (X-Forwarded-For names the caller's address).
describe('/api/detect-currency route', () => {
  const api = withRouteApi();

  it.each([
    // A documentation address no country owns: the browser's language decides.
    ['192.0.2.1', 'de-DE,de;q=0.9', { currency: 'EUR', country: 'DE' }],
    ['192.0.2.1', 'en-GB', { currency: 'GBP', country: 'GB' }],
    ['192.0.2.1', 'fr', { currency: 'USD', country: null }],
    ['192.0.2.1', '', { currency: 'USD', country: null }],
    // An address of a country goes before the language.
    ['8.8.8.8', 'de-DE', { currency: 'USD', country: 'US' }],
  ])('answers anyone from %s with Accept-Language %j: %j', async (address, language, answer) => {
    const res = await new Visitor(api.baseUrl, address).request('/api/detect-currency', { headers: language ? { 'Accept-Language': language } : {} });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: answer });
  });
});
