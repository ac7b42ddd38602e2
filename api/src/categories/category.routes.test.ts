import { categoryCreateSchema, categoryNameSchema, categoryUpdateSchema } from '@receipts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';

// /api/user/categories over HTTP on the real api and database.
describe('/api/user/categories routes', () => {
  const api = withRouteApi();
  let user: Caller;

  beforeAll(async () => {
    user = await api.signedIn();
  }, 120_000);

  it.each([
    ['GET', '/api/user/categories'],
    ['POST', '/api/user/categories'],
    ['PATCH', '/api/user/categories/x'],
    ['DELETE', '/api/user/categories/x'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
  });

  it('adds, renames and deletes a category of the user’s own', async () => {
    expect(await user.post('/api/user/categories', { name: '  Travel ', datevAccount: null })).toMatchObject({ status: 201, body: { name: 'Travel', builtIn: false } });
    expect(await user.post('/api/user/categories', { name: 'travel' })).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
    expect(await user.patch('/api/user/categories/Travel', { name: 'Trips' })).toMatchObject({ status: 200, body: { name: 'Trips' } });
    const names = (await user.get<{ categories: Array<{ name: string }> }>('/api/user/categories')).body.categories.map((c) => c.name);
    expect(names).toContain('Trips');
    expect(names).toContain('grocery');
    expect(await user.delete('/api/user/categories/Trips')).toMatchObject({ status: 204, body: null });
    expect(await user.delete('/api/user/categories/grocery')).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', message: 'The built-in categories cannot be renamed or deleted.' },
    });
  });

  it.each([{}, { name: '' }, { name: 'x'.repeat(200) }, { name: 'Fine', extra: 1 }])('refuses to add %j', async (body) => {
    expect(await user.post('/api/user/categories', body)).toEqual(expect.objectContaining(invalid(categoryCreateSchema, body)));
  });

  it('checks the name in the address before the change in the body', async () => {
    const blank = encodeURIComponent('   ');
    expect(await user.patch(`/api/user/categories/${blank}`, {})).toEqual(expect.objectContaining(invalid(categoryNameSchema, '   ')));
    expect(await user.patch('/api/user/categories/Food', {})).toEqual(expect.objectContaining(invalid(categoryUpdateSchema, {})));
    expect(await user.delete(`/api/user/categories/${blank}`)).toEqual(expect.objectContaining(invalid(categoryNameSchema, '   ')));
  });
});
