import { createHash, randomUUID } from 'node:crypto';
import { ACTIVE_TOKENS_MAX, API_TOKEN_PATTERN, isEmailVerified, API_TOKEN_MESSAGES } from '@receipts/common';
import { ApiTokenRepository, schema, UserRepository, type UserRow } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { HttpError } from '../http-error.js';
import { ApiTokenService, TOKEN_USE_INTERVAL_MS } from './api-token.service.js';

// Real PostgreSQL: tokens are made, checked and revoked as the routes and the bearer middleware do.
describe('ApiTokenService', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let users: UserRepository;
  let repository: ApiTokenRepository;
  let service: ApiTokenService;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    repository = new ApiTokenRepository(database.db);
    service = new ApiTokenService(repository, { isEmailVerified: (user) => isEmailVerified(user, []) });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const now = new Date('2030-01-01T12:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);

  async function account(confirmed = true): Promise<UserRow> {
    const row = (await users.insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!;
    if (!confirmed) return row;
    await database.db.update(schema.users).set({ emailVerifiedAt: now }).where(eq(schema.users.id, row.id));
    return (await users.byId(row.id))!;
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code, message: err.message } : err),
    );

  it('makes a token whose text is answered once and stored only as its hash', async () => {
    const user = await account();
    const made = await service.create(user, { name: 'CI', scopes: ['receipts:read', 'export'], expiresInDays: 30 }, now);
    expect(made.token).toMatch(API_TOKEN_PATTERN);
    expect(made.token.startsWith(`${made.prefix}_`)).toBe(true);
    expect(made).toMatchObject({ name: 'CI', scopes: ['receipts:read', 'export'], lastUsedAt: null, expiresAt: later(30 * 24 * 3600_000).toISOString() });
    const stored = (await repository.byPrefix(made.prefix))!;
    expect(stored.hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(made.prefix.length + 1));
    const [listed] = await service.list(user.id);
    expect(listed).toEqual({ id: made.id, name: 'CI', prefix: made.prefix, scopes: ['receipts:read', 'export'], createdAt: made.createdAt, lastUsedAt: null, expiresAt: made.expiresAt });
    expect(Object.keys(listed!)).not.toContain('hash');
    // Without a number of days it lasts until revoked; two tokens never share a text.
    const lasting = await service.create(user, { name: 'cron', scopes: ['receipts:write'] }, now);
    expect(lasting.expiresAt).toBeNull();
    expect(lasting.token).not.toBe(made.token);
  });

  it('makes tokens for a confirmed address only, and no more than the bound', async () => {
    expect(await refusal(service.create(await account(false), { name: 'x', scopes: ['receipts:read'] }, now))).toEqual({
      status: 403,
      code: 'EMAIL_NOT_VERIFIED',
      message: API_TOKEN_MESSAGES.confirmBeforeCreating,
    });
    const user = await account();
    for (let i = 0; i < ACTIVE_TOKENS_MAX; i++) await service.create(user, { name: `t${i}`, scopes: ['receipts:read'] }, now);
    expect(await refusal(service.create(user, { name: 'one more', scopes: ['receipts:read'] }, now))).toEqual({ status: 409, code: 'CONFLICT', message: API_TOKEN_MESSAGES.tooMany });
  });

  it('knows a token by its whole text and notes its use at most once a minute', async () => {
    const user = await account();
    const made = await service.create(user, { name: 'CI', scopes: ['receipts:read'] }, now);
    expect(await service.authenticate(made.token, now)).toEqual({ id: made.id, userId: user.id, scopes: ['receipts:read'] });
    const lastUsed = async () => (await repository.byPrefix(made.prefix))!.lastUsedAt;
    expect(await lastUsed()).toEqual(now);
    await service.authenticate(made.token, later(TOKEN_USE_INTERVAL_MS - 1));
    expect(await lastUsed()).toEqual(now);
    await service.authenticate(made.token, later(TOKEN_USE_INTERVAL_MS));
    expect(await lastUsed()).toEqual(later(TOKEN_USE_INTERVAL_MS));
  });

  it('refuses a malformed or unknown token, a wrong secret behind a known prefix, a revoked one and an expired one', async () => {
    const user = await account();
    const made = await service.create(user, { name: 'CI', scopes: ['receipts:read'], expiresInDays: 1 }, now);
    const unknown = { status: 401, code: 'UNAUTHENTICATED', message: API_TOKEN_MESSAGES.unknown };
    const secret = made.token.slice(made.prefix.length + 1);
    const otherSecret = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await refusal(service.authenticate('', now))).toEqual(unknown);
    expect(await refusal(service.authenticate(`${made.token}x`, now))).toEqual(unknown);
    expect(await refusal(service.authenticate(`${made.prefix}_${otherSecret}`, now))).toEqual(unknown);
    expect(await refusal(service.authenticate(`rct_${randomUUID().slice(0, 8)}_${secret}`, now))).toEqual(unknown);
    // A day later, to the second, it is expired.
    expect(await refusal(service.authenticate(made.token, later(24 * 3600_000)))).toEqual({ status: 401, code: 'UNAUTHENTICATED', message: API_TOKEN_MESSAGES.expired });
    await service.revoke(user.id, made.id, now);
    expect(await refusal(service.authenticate(made.token, now))).toEqual({ status: 401, code: 'UNAUTHENTICATED', message: API_TOKEN_MESSAGES.revoked });
  });

  it('revokes the account’s own tokens only', async () => {
    const [owner, other] = [await account(), await account()];
    const made = await service.create(owner, { name: 'CI', scopes: ['receipts:read'] }, now);
    expect(await refusal(service.revoke(other.id, made.id, now))).toEqual({ status: 404, code: 'NOT_FOUND', message: API_TOKEN_MESSAGES.notFound });
    expect(await service.authenticate(made.token, now)).toMatchObject({ id: made.id });
    await service.revoke(owner.id, made.id, now);
    expect(await service.list(owner.id)).toEqual([]);
    expect(await refusal(service.revoke(owner.id, made.id, now))).toMatchObject({ status: 404 });
  });

  it('refuses the token of a deleted account', async () => {
    const user = await account();
    const made = await service.create(user, { name: 'CI', scopes: ['receipts:read'] }, now);
    await users.deleteWithData(user.id);
    expect(await refusal(service.authenticate(made.token, now))).toMatchObject({ status: 401, message: API_TOKEN_MESSAGES.unknown });
  });
});
