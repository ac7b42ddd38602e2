import { describe, expect, it } from 'vitest';
import { withRouteApi } from '../../../tests/support/route-api.js';

// /api/intake over HTTP on the real api and database, on a deployment that receives mail (the
// listener itself is not started: these routes only hand out addresses).
describe('/api/intake routes', () => {
  const api = withRouteApi({ INTAKE_DOMAIN: 'in.example.test', INTAKE_SMTP_PORT: '0' });

  it.each(['GET', 'POST', 'DELETE'])('answers %s to signed-in callers only', async (method) => {
    expect(await api.anonymous().send(method, '/api/intake')).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } });
  });

  it('makes the caller an address of their own, a new one on asking, and turns it off', async () => {
    const user = await api.signedIn();
    expect(await user.get('/api/intake')).toMatchObject({ status: 200, body: { available: true, address: null } });
    const first = await user.post<{ address: string }>('/api/intake');
    expect(first).toMatchObject({ status: 200, body: { available: true, address: expect.stringMatching(/@in\.example\.test$/) } });
    const second = await user.post<{ address: string }>('/api/intake');
    expect(second.body.address).not.toBe(first.body.address);
    expect((await user.get('/api/intake')).body).toEqual({ available: true, address: second.body.address });
    // Another account's address is its own.
    expect((await (await api.signedIn()).get('/api/intake')).body).toEqual({ available: true, address: null });
    expect(await user.delete('/api/intake')).toMatchObject({ status: 200, body: { available: true, address: null } });
    expect((await user.get('/api/intake')).body).toEqual({ available: true, address: null });
  });
});
