import { apiTokenCreatedSchema, apiTokenListSchema, createApiTokenSchema, API_TOKEN_MESSAGES } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi } from '../../../tests/support/route-api.js';

const unauthenticated = { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } };

// /api/user/tokens over HTTP on the real api and database, and a token's requests after it.
describe('/api/user/tokens routes', () => {
  const api = withRouteApi();

  it.each([
    ['GET', '/api/user/tokens'],
    ['POST', '/api/user/tokens'],
    ['DELETE', '/api/user/tokens/00000000-0000-4000-8000-000000000000'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject(unauthenticated);
  });

  it('makes a token, answers its text once, and lists it without', async () => {
    const user = await api.signedIn();
    expect(await user.get('/api/user/tokens')).toMatchObject({ status: 200, body: { tokens: [] } });
    const made = await user.post('/api/user/tokens', { name: '  Bookkeeping script ', scopes: ['export', 'receipts:read', 'export'], expiresInDays: 90 });
    expect(made.status).toBe(201);
    const created = apiTokenCreatedSchema.parse(made.body);
    expect(created).toMatchObject({ name: 'Bookkeeping script', scopes: ['receipts:read', 'export'], lastUsedAt: null });
    expect(Date.parse(created.expiresAt!) - Date.parse(created.createdAt)).toBeCloseTo(90 * 24 * 3600_000, -4);
    const listed = await user.get('/api/user/tokens');
    const { token, ...view } = created;
    expect(apiTokenListSchema.parse(listed.body)).toEqual({ tokens: [view] });
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(created.prefix.length));
    expect(listed.body.tokens[0]).not.toHaveProperty('hash');
    // Used once, the list says when.
    expect((await api.bearer(token).get('/api/uploads')).status).toBe(200);
    expect((await user.get('/api/user/tokens')).body.tokens[0].lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a token without a name, without scopes, with a scope it does not know or an expiry out of range', async () => {
    const user = await api.signedIn();
    for (const body of [
      { scopes: ['receipts:read'] },
      { name: ' ', scopes: ['receipts:read'] },
      { name: 'x'.repeat(101), scopes: ['receipts:read'] },
      { name: 'a\u0000b', scopes: ['receipts:read'] },
      { name: 'ci' },
      { name: 'ci', scopes: [] },
      { name: 'ci', scopes: ['admin'] },
      { name: 'ci', scopes: ['receipts:read'], expiresInDays: 0 },
      { name: 'ci', scopes: ['receipts:read'], expiresInDays: 366 },
      { name: 'ci', scopes: ['receipts:read'], expiresInDays: 1.5 },
      { name: 'ci', scopes: ['receipts:read'], expiresInDays: '30' },
    ]) {
      expect(await user.post('/api/user/tokens', body)).toEqual(expect.objectContaining(invalid(createApiTokenSchema, body)));
    }
    expect(invalid(createApiTokenSchema, { name: 'ci', scopes: [] }).body.message).toBe(API_TOKEN_MESSAGES.scopesRequired);
    expect(invalid(createApiTokenSchema, { name: 'ci', scopes: ['receipts:read'], expiresInDays: 366 }).body.message).toBe(API_TOKEN_MESSAGES.expiryInvalid);
    expect(await user.post('/api/user/tokens', { name: 'ci', scopes: ['receipts:read'], expiresInDays: 365 })).toMatchObject({ status: 201 });
    expect(await user.post('/api/user/tokens', { name: 'ci', scopes: ['receipts:read'], expiresInDays: null })).toMatchObject({ status: 201, body: { expiresAt: null } });
  });

  it('makes tokens for confirmed addresses only', async () => {
    const unconfirmed = await api.signedIn('unconfirmed');
    expect(await unconfirmed.post('/api/user/tokens', { name: 'ci', scopes: ['receipts:read'] })).toEqual(
      expect.objectContaining({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: API_TOKEN_MESSAGES.confirmBeforeCreating } }),
    );
  });

  it('revokes a token at once; another account cannot', async () => {
    const [owner, other] = [await api.signedIn(), await api.signedIn()];
    const { id, token } = await api.token(owner);
    expect((await api.bearer(token).get('/api/uploads')).status).toBe(200);
    expect(await other.delete(`/api/user/tokens/${id}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: API_TOKEN_MESSAGES.notFound } });
    expect((await api.bearer(token).get('/api/uploads')).status).toBe(200);
    expect(await owner.delete('/api/user/tokens/not-an-id')).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(await owner.delete(`/api/user/tokens/${id}`)).toMatchObject({ status: 204 });
    expect(await api.bearer(token).get('/api/uploads')).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED', message: API_TOKEN_MESSAGES.revoked } });
    expect(await owner.get('/api/user/tokens')).toMatchObject({ body: { tokens: [] } });
    expect((await owner.delete(`/api/user/tokens/${id}`)).status).toBe(404);
  });

  it('is closed to token requests: a token neither lists, makes nor revokes tokens', async () => {
    const owner = await api.signedIn();
    const { id, token } = await api.token(owner, { scopes: ['receipts:read', 'receipts:write', 'export'] });
    const script = api.bearer(token);
    expect((await script.get('/api/user/tokens')).status).toBe(403);
    expect((await script.post('/api/user/tokens', { name: 'more', scopes: ['receipts:read'] })).status).toBe(403);
    expect((await script.delete(`/api/user/tokens/${id}`)).status).toBe(403);
    expect((await owner.get('/api/user/tokens')).body.tokens).toHaveLength(1);
  });
});
