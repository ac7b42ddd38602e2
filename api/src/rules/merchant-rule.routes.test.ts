import { randomUUID } from 'node:crypto';
import { merchantRulePatchSchema } from '@receipts/common';
import { MerchantRuleRepository } from '@receipts/infra';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';

// /api/user/rules over HTTP on the real api and database; the rules are learned as corrections learn them.
describe('/api/user/rules routes', () => {
  const api = withRouteApi();
  let user: Caller;
  let rules: MerchantRuleRepository;

  beforeAll(async () => {
    user = await api.signedIn();
    rules = new MerchantRuleRepository(api.runtime.db);
  }, 120_000);

  const learned = async (owner: Caller) => {
    await rules.learn(owner.userId!, [{ kind: 'merchant', match: `shop-${randomUUID()}`, value: 'Corner Shop' }]);
    const list = await owner.get<{ rules: Array<{ id: string; value: string }> }>('/api/user/rules');
    return list.body.rules.at(-1)!;
  };

  it.each([
    ['GET', '/api/user/rules'],
    ['PATCH', `/api/user/rules/${randomUUID()}`],
    ['DELETE', `/api/user/rules/${randomUUID()}`],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, { value: 'x' })).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
  });

  it('renames and deletes the user’s own rule', async () => {
    const rule = await learned(user);
    expect(await user.patch(`/api/user/rules/${rule.id}`, { value: ' Corner Store ' })).toMatchObject({ status: 200, body: { id: rule.id, value: 'Corner Store' } });
    expect(await user.delete(`/api/user/rules/${rule.id}`)).toMatchObject({ status: 204 });
    expect(await user.delete(`/api/user/rules/${rule.id}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: 'Rule not found' } });
  });

  it('leaves another user’s rule alone', async () => {
    const other = await api.signedIn();
    const rule = await learned(other);
    expect(await user.patch(`/api/user/rules/${rule.id}`, { value: 'Mine now' })).toMatchObject({ status: 404 });
    expect(await user.delete(`/api/user/rules/${rule.id}`)).toMatchObject({ status: 404 });
  });

  it('refuses an empty value before a malformed id, and a malformed id', async () => {
    for (const body of [{}, { value: '  ' }, { value: 'x'.repeat(201) }]) {
      expect(await user.patch('/api/user/rules/42', body)).toEqual(expect.objectContaining(invalid(merchantRulePatchSchema, body)));
    }
    expect(await user.patch('/api/user/rules/42', { value: 'ok' })).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } });
    expect(await user.delete('/api/user/rules/42')).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } });
  });
});
