import { ACCOUNT_MESSAGES, MEMBERSHIP_MESSAGES, changeEmailSchema, changePasswordSchema, DEFAULT_DATEV_SETTINGS, datevSettingsSchema, deleteAccountSchema, IDEMPOTENCY_KEY_HEADER } from '@receipts/common';
import { keptFileOf, ownerKey, schema, StoredFileMissingError } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi, ROUTE_TEST_PASSWORD } from '../../../tests/support/route-api.js';
import { openTeam } from '../../../tests/support/teams.js';

const unauthenticated = { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } };

// /api/user over HTTP on the real api and database: who may call each route, and what it refuses.
describe('/api/user routes', () => {
  const api = withRouteApi();

  it.each([
    ['GET', '/api/user/profile'],
    ['GET', '/api/user/subscription'],
    ['GET', '/api/user/data'],
    ['GET', '/api/user/datev-settings'],
    ['PUT', '/api/user/datev-settings'],
    ['POST', '/api/user/password'],
    ['POST', '/api/user/email'],
    ['DELETE', '/api/user/account'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    // Nobody signed in is told so before anything of the request is looked at.
    expect(await api.anonymous().send(method, url, {})).toMatchObject(unauthenticated);
  });

  it('tells anyone their quota, and a signed-in caller their profile and plan', async () => {
    expect(await api.anonymous().get('/api/user/quota')).toMatchObject({ status: 200, body: { used: 0, canProcess: true } });
    const user = await api.signedIn();
    expect(await user.get('/api/user/profile')).toMatchObject({ status: 200, body: { email: user.email } });
    expect((await user.get('/api/user/subscription')).status).toBe(200);
    const data = await user.get('/api/user/data');
    expect(data.status).toBe(200);
    expect(data.headers.get('content-type')).toBe('application/zip');
  });

  it('changes the password only when the form is whole and the current one is right', async () => {
    const user = await api.signedIn();
    for (const body of [{}, { currentPassword: ROUTE_TEST_PASSWORD, password: 'New-password-5678', confirmPassword: 'Other-password-5678' }, { currentPassword: ROUTE_TEST_PASSWORD, password: 'short', confirmPassword: 'short' }]) {
      expect(await user.post('/api/user/password', body)).toEqual(expect.objectContaining(invalid(changePasswordSchema, body)));
    }
    expect(await user.post('/api/user/password', { currentPassword: 'Wrong-password-1', password: 'New-password-5678', confirmPassword: 'New-password-5678' })).toMatchObject({
      status: 403,
      body: { error: 'INVALID_CREDENTIALS', message: ACCOUNT_MESSAGES.wrongPassword },
    });
    expect(await user.post('/api/user/password', { currentPassword: ROUTE_TEST_PASSWORD, password: 'New-password-5678', confirmPassword: 'New-password-5678' })).toMatchObject({
      status: 200,
      body: { message: ACCOUNT_MESSAGES.passwordChanged },
    });
  });

  it('moves the account to a new address, given as one, with the password', async () => {
    const user = await api.signedIn();
    for (const body of [{ currentPassword: ROUTE_TEST_PASSWORD }, { email: 'not an address', currentPassword: ROUTE_TEST_PASSWORD }, { email: 'a@example.test' }]) {
      expect(await user.post('/api/user/email', body)).toEqual(expect.objectContaining(invalid(changeEmailSchema, body)));
    }
    expect(await user.post('/api/user/email', { email: user.email, currentPassword: ROUTE_TEST_PASSWORD })).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', message: ACCOUNT_MESSAGES.emailUnchanged },
    });
    const moved = `  Moved-${Date.now()}@Example.test `;
    expect(await user.post('/api/user/email', { email: moved, currentPassword: ROUTE_TEST_PASSWORD })).toMatchObject({
      status: 200,
      body: { message: ACCOUNT_MESSAGES.emailChanged, user: { email: moved.trim().toLowerCase() } },
    });
  });

  it('keeps DATEV settings that the schema takes, and shows the defaults until then', async () => {
    const user = await api.signedIn();
    expect(await user.get('/api/user/datev-settings')).toMatchObject({ status: 200, body: { settings: DEFAULT_DATEV_SETTINGS, saved: false } });
    const wrong = { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 12 };
    expect(await user.put('/api/user/datev-settings', wrong)).toEqual(expect.objectContaining(invalid(datevSettingsSchema, wrong)));
    const mine = { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4711 };
    expect(await user.put('/api/user/datev-settings', mine)).toMatchObject({ status: 200, body: { settings: mine, saved: true } });
    expect(await user.get('/api/user/datev-settings')).toMatchObject({ status: 200, body: { settings: mine, saved: true } });
  });

  it('deletes the account only with its password, then the session is gone', async () => {
    const user = await api.signedIn();
    expect(await user.delete('/api/user/account', {})).toEqual(expect.objectContaining(invalid(deleteAccountSchema, {})));
    expect(await user.delete('/api/user/account', { password: 'Wrong-password-1' })).toMatchObject({ status: 403, body: { error: 'INVALID_CREDENTIALS' } });
    expect(await user.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).toMatchObject({
      status: 200,
      body: { message: 'Your account and all its data have been deleted.' },
    });
    expect(await user.get('/api/user/profile')).toMatchObject(unauthenticated);
  });

  it('takes the exports the account’s Idempotency-Keys kept along with it', async () => {
    const user = await api.signedIn();
    await api.receipt(user);
    expect((await user.send('POST', '/api/export', { format: 'csv' }, { [IDEMPOTENCY_KEY_HEADER]: 'books' })).status).toBe(200);
    const keysOfUser = () => api.runtime.db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.owner, ownerKey({ userId: user.userId, anonId: null })));
    const [key] = await keysOfUser();
    const fileId = keptFileOf(key!.answer)!;
    (await api.runtime.files.readStream(fileId)).destroy();
    expect((await user.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).status).toBe(200);
    expect(await keysOfUser()).toEqual([]);
    await expect(api.runtime.files.readStream(fileId)).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('refuses to delete an owner of a team with other members until it is handed over; a team of one goes with the account', async () => {
    const team = await openTeam(api);
    const { accountant } = team.member;
    expect(await team.owner.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: MEMBERSHIP_MESSAGES.ownerMustTransfer } });
    expect((await team.owner.get('/api/user/profile')).status).toBe(200);
    // A member's account goes alone; the workspace and their receipts in it stay.
    await api.receipt(team.member.member);
    expect((await team.member.member.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).status).toBe(200);
    expect((await team.owner.get('/api/uploads')).body).toHaveLength(1);

    expect((await team.owner.post('/api/workspaces/current/ownership', { userId: accountant.userId })).status).toBe(200);
    const solo = (await team.owner.post('/api/workspaces', { name: 'Just me' })).body.id as string;
    expect((await team.owner.delete('/api/user/account', { password: ROUTE_TEST_PASSWORD })).status).toBe(200);
    expect(await api.runtime.db.select().from(schema.workspaces).where(eq(schema.workspaces.id, solo))).toEqual([]);
    expect(await api.runtime.db.select().from(schema.workspaces).where(eq(schema.workspaces.id, team.id))).toHaveLength(1);
    expect((await accountant.get('/api/uploads')).body).toHaveLength(1);
  });
});
