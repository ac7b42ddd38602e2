import { describe, expect, it } from 'vitest';
import { withRouteApi } from '../../tests/support/route-api.js';

// GET /api/config over HTTP on the real api: what the web app reads once, the same for everyone.
describe('/api/config route', () => {
  const api = withRouteApi({ ANALYTICS_MEASUREMENT_ID: 'G-ROUTETEST1' });

  it('tells anyone, signed in or not, the same settings', async () => {
    const anonymous = await api.anonymous().get('/api/config');
    expect(anonymous).toMatchObject({ status: 200, body: { analyticsMeasurementId: 'G-ROUTETEST1', engines: ['local'], convertibleCurrencies: [] } });
    expect((await (await api.signedIn()).get('/api/config')).body).toEqual(anonymous.body);
  });

  it('is read only', async () => {
    expect(await api.anonymous().post('/api/config', {})).toEqual(expect.objectContaining({ status: 404, body: { error: 'NOT_FOUND', message: 'No such API route' } }));
  });
});
