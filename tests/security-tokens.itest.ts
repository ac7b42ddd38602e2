import { API_TOKEN_MESSAGES, type ApiTokenCreated, type TokenScope } from '@receipts/common';
import { createHash, randomBytes } from 'node:crypto';
import { schema, UserRepository } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { withRouteApi, ROUTE_TEST_PASSWORD, type Caller, type RouteApi } from './support/route-api.js';
import { pngFile } from './support/upload-stack.js';

/**
 * Personal access tokens against the api as it runs (every router, the session, Redis, PostgreSQL):
 * a token is its account's for what its scopes allow and nothing else, with no cookie and no
 * X-Requested-With; revoked, expired and deleted accounts' tokens are refused; the CSRF header
 * stays required of cookie sessions.
 */
const PER_MINUTE = 8;

const receiptForm = () => {
  const form = new FormData();
  const file = pngFile();
  form.append('file', new Blob([new Uint8Array(file.buffer)]), file.originalname);
  return form;
};

describe('access tokens (security)', () => {
  const api: RouteApi = withRouteApi({ TOKEN_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) });
  const ALL: TokenScope[] = ['receipts:read', 'receipts:write', 'export'];
  const tokenOf = (owner: Caller, scopes: TokenScope[] = ALL): Promise<ApiTokenCreated> => api.token(owner, { scopes });
  const refused = (message: string) => ({ status: 401, body: { error: 'UNAUTHENTICATED', message } });

  it('reads the uploads and uploads a receipt with a token alone: no cookie, no X-Requested-With, the account’s quota', async () => {
    const owner = await api.signedIn();
    const script = api.bearer((await tokenOf(owner)).token);
    const before = (await owner.get('/api/user/quota')).body.used as number;
    const upload = await script.post('/api/ocr', receiptForm());
    expect(upload).toMatchObject({ status: 202, body: { status: 'queued' } });
    // No session is made for a token request.
    expect(upload.headers.getSetCookie()).toEqual([]);
    const listed = await script.get('/api/uploads');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(upload.body.id);
    // The upload is the account's, seen from its session, and counted in its quota.
    expect((await owner.get(`/api/uploads/${upload.body.id}`)).status).toBe(200);
    expect((await owner.get('/api/user/quota')).body.used).toBe(before + 1);
  });

  it('ignores the cookies beside a token: the request is the token’s account', async () => {
    const [owner, cookieHolder] = [await api.signedIn(), await api.signedIn()];
    const [held, own] = [await api.receipt(cookieHolder), await api.receipt(owner)];
    const script = api.bearer((await tokenOf(owner)).token, { cookie: cookieHolder });
    const listed = await script.get<Array<{ receipt: { id: string } | null }>>('/api/uploads');
    expect(listed.status).toBe(200);
    expect(listed.body.map((u) => u.receipt?.id)).toEqual([own]);
    expect((await script.get(`/api/receipts/${held}`)).status).toBe(404);
    expect((await cookieHolder.get(`/api/receipts/${held}`)).status).toBe(200);
  });

  it('keeps another account’s uploads from a token as from a session: 404', async () => {
    const [owner, stranger] = [await api.signedIn(), await api.signedIn()];
    const upload = await api.bearer((await tokenOf(owner)).token).post('/api/ocr', receiptForm());
    const receipt = await api.receipt(owner);
    const strangerScript = api.bearer((await tokenOf(stranger)).token);
    expect((await strangerScript.get(`/api/uploads/${upload.body.id}`)).status).toBe(404);
    expect((await stranger.get(`/api/uploads/${upload.body.id}`)).status).toBe(404);
    expect((await strangerScript.get(`/api/receipts/${receipt}`)).status).toBe(404);
    expect((await strangerScript.delete(`/api/uploads/${upload.body.id}`)).status).toBe(404);
    expect(JSON.stringify((await strangerScript.get('/api/uploads')).body)).not.toContain(upload.body.id);
  });

  it('refuses a revoked token, an expired one, an unknown one and one of a deleted account, with WWW-Authenticate', async () => {
    const owner = await api.signedIn();
    const revoked = await tokenOf(owner);
    expect((await api.bearer(revoked.token).get('/api/uploads')).status).toBe(200);
    expect((await owner.delete(`/api/user/tokens/${revoked.id}`)).status).toBe(204);
    const afterRevoke = await api.bearer(revoked.token).get('/api/uploads');
    expect(afterRevoke).toMatchObject(refused(API_TOKEN_MESSAGES.revoked));
    expect(afterRevoke.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const expiring = await api.token(owner, { scopes: ['receipts:read'], expiresInDays: 1 });
    expect((await api.bearer(expiring.token).get('/api/uploads')).status).toBe(200);
    await api.runtime.db.update(schema.apiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(schema.apiTokens.id, expiring.id));
    expect(await api.bearer(expiring.token).get('/api/uploads')).toMatchObject(refused(API_TOKEN_MESSAGES.expired));

    expect(await api.bearer(`${revoked.prefix}_${'x'.repeat(43)}`).get('/api/uploads')).toMatchObject(refused(API_TOKEN_MESSAGES.unknown));
    expect(await api.bearer('not-a-token').post('/api/ocr', receiptForm())).toMatchObject(refused(API_TOKEN_MESSAGES.unknown));

    const leaving = await api.signedIn();
    const orphan = await tokenOf(leaving);
    expect((await leaving.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).status).toBe(200);
    expect(await api.bearer(orphan.token).get('/api/uploads')).toMatchObject(refused(API_TOKEN_MESSAGES.unknown));
  });

  it('revokes the account’s tokens when its password is reset by a mailed link: signed out everywhere, scripts too', async () => {
    const owner = await api.signedIn();
    const left = await tokenOf(owner);
    expect((await api.bearer(left.token).get('/api/uploads')).status).toBe(200);
    const link = randomBytes(32).toString('base64url');
    await new UserRepository(api.runtime.db).addMailToken('password-reset', { tokenHash: createHash('sha256').update(link).digest('hex'), userId: owner.userId!, email: owner.email!, expiresAt: new Date(Date.now() + 3600_000) });
    const reset = await api.anonymous().post('/api/auth/reset-password', { token: link, password: 'Reset-password-9876', confirmPassword: 'Reset-password-9876' });
    expect(reset.status).toBe(200);
    expect(await api.bearer(left.token).get('/api/uploads')).toMatchObject(refused(API_TOKEN_MESSAGES.revoked));
  });

  it('answers 429 with Retry-After past the token’s rate, across its requests of every kind', async () => {
    const script = api.bearer((await tokenOf(await api.signedIn())).token);
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++) statuses.push((await (i % 2 ? script.get('/api/uploads') : script.get('/api/receipts'))).status);
    expect(statuses).toEqual(Array(PER_MINUTE).fill(200));
    const limited = await script.get('/api/uploads');
    expect(limited).toMatchObject({ status: 429, body: { error: 'RATE_LIMITED' } });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('still refuses a cookie session’s state-changing request without X-Requested-With', async () => {
    const owner = await api.signedIn();
    const res = await fetch(`${api.baseUrl}/api/ocr`, { method: 'POST', headers: { cookie: owner.visitor.cookie, 'X-Forwarded-For': owner.visitor.clientIp! }, body: receiptForm() });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'FORBIDDEN' });
    // With the header, the same session uploads.
    expect((await owner.post('/api/ocr', receiptForm())).status).toBe(202);
  });

  // Route specs (api/src/route-spec.ts) refuse a token a route's scope does not name.
  it('refuses a token without the scope a route names', async () => {
    const owner = await api.signedIn();
    const exportOnly = api.bearer((await tokenOf(owner, ['export'])).token);
    const readOnly = api.bearer((await tokenOf(owner, ['receipts:read'])).token);
    const receipt = await api.receipt(owner);
    const forbidden = (scope: TokenScope) => ({ status: 403, body: { error: 'FORBIDDEN', message: API_TOKEN_MESSAGES.missingScope(scope) } });
    expect(await exportOnly.get('/api/receipts')).toMatchObject(forbidden('receipts:read'));
    expect(await exportOnly.get('/api/uploads')).toMatchObject(forbidden('receipts:read'));
    expect(await readOnly.post('/api/ocr', receiptForm())).toMatchObject(forbidden('receipts:write'));
    expect(await readOnly.delete(`/api/receipts/${receipt}`)).toMatchObject(forbidden('receipts:write'));
    expect((await readOnly.get(`/api/receipts/${receipt}`)).status).toBe(200);
  });

  it('keeps every token, whatever its scopes and even an admin’s, from admin, account and token routes', async () => {
    const admin = await api.signedIn('admin');
    const user = await api.signedIn();
    const adminScript = api.bearer((await tokenOf(admin)).token);
    const userScript = api.bearer((await tokenOf(user)).token);
    const closed = { status: 403, body: { error: 'FORBIDDEN', message: API_TOKEN_MESSAGES.routeClosedToTokens } };
    expect(await adminScript.get('/api/admin/users')).toMatchObject(closed);
    expect(await adminScript.get('/api/admin/queues')).toMatchObject(closed);
    for (const script of [adminScript, userScript]) {
      expect(await script.post('/api/user/password', { currentPassword: ROUTE_TEST_PASSWORD, password: 'New-password-5678', confirmPassword: 'New-password-5678' })).toMatchObject(closed);
      expect(await script.post('/api/user/email', { email: 'taken-over@example.test', currentPassword: ROUTE_TEST_PASSWORD })).toMatchObject(closed);
      expect(await script.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).toMatchObject(closed);
      expect(await script.get('/api/user/tokens')).toMatchObject(closed);
      expect(await script.get('/api/user/webhooks')).toMatchObject(closed);
      expect(await script.post('/api/user/tokens', { name: 'more', scopes: ['receipts:read'] })).toMatchObject(closed);
    }
    // Nothing of either account changed: both still sign in with the same password and address.
    expect((await user.get('/api/user/profile')).body.email).toBe(user.email);
    expect((await admin.get('/api/admin/users')).status).toBe(200);
  });
});
