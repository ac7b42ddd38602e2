import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { withRouteApi, type Caller } from '../../../tests/support/route-api.js';

// The admin routes over HTTP on the real api and database: who may call them, and what they refuse.
describe('/api/admin routes', () => {
  const api = withRouteApi();
  let admin: Caller;
  let user: Caller;

  beforeAll(async () => {
    admin = await api.signedIn('admin');
    user = await api.signedIn('user');
  }, 120_000);

  it.each(['/api/admin/users', '/api/admin/uploads', '/api/admin/queues'])('lets admins only read %s', async (url) => {
    expect(await api.anonymous().get(url)).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } });
    expect(await user.get(url)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: 'Admins only.' } });
    expect((await admin.get(url)).status).toBe(200);
  });

  it('lists users a page at a time, searched by address', async () => {
    const found = await admin.get<Array<{ email: string; userType: string }>>(`/api/admin/users?search=${encodeURIComponent(user.email!)}&page=1`);
    expect(found).toMatchObject({ status: 200, body: [{ email: user.email, userType: 'user' }] });
    expect((await admin.get('/api/admin/users?page=2')).body).toEqual([]);
  });

  it.each([
    ['/api/admin/users?page=0', 'VALIDATION_FAILED'],
    ['/api/admin/users?page=x', 'VALIDATION_FAILED'],
    ['/api/admin/uploads?status=lost', 'VALIDATION_FAILED'],
  ])('refuses %s', async (url, error) => {
    expect(await admin.get(url)).toMatchObject({ status: 400, body: { error, message: expect.any(String) } });
  });

  it('makes a user an admin and back, and refuses a bad id or role', async () => {
    const promoted = await admin.patch(`/api/admin/users/${user.userId}`, { userType: 'admin' });
    expect(promoted).toMatchObject({ status: 200, body: { id: user.userId, userType: 'admin' } });
    expect((await user.get('/api/admin/queues')).status).toBe(200);
    expect(await admin.patch(`/api/admin/users/${user.userId}`, { userType: 'user' })).toMatchObject({ status: 200, body: { userType: 'user' } });
    expect((await user.get('/api/admin/queues')).status).toBe(403);

    expect(await admin.patch('/api/admin/users/42', { userType: 'admin' })).toEqual(expect.objectContaining({ status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } }));
    // The body is checked before the id, as ever.
    expect(await admin.patch('/api/admin/users/42', { userType: 'root' })).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(await admin.patch(`/api/admin/users/${randomUUID()}`, { userType: 'admin' })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: 'User not found' } });
    expect((await user.patch(`/api/admin/users/${user.userId}`, { userType: 'admin' })).status).toBe(403);
  });

  it('retries only a failed upload, by a valid id', async () => {
    expect(await admin.post('/api/admin/uploads/not-an-id/retry')).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } });
    expect(await admin.post(`/api/admin/uploads/${randomUUID()}/retry`)).toMatchObject({ status: 409, body: { error: 'NOT_CANCELLABLE' } });
    expect((await api.anonymous().post(`/api/admin/uploads/${randomUUID()}/retry`)).status).toBe(401);
  });
});
