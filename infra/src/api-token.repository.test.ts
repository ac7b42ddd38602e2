import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { ApiTokenRepository, type NewApiToken } from './api-token.repository.js';
import { apiTokens } from './db/schema.js';
import { UserRepository } from './user.repository.js';

// Real PostgreSQL: the bound on tokens held, revocation and the once-a-minute use mark live in the SQL.
describe('api tokens on postgres', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let users: UserRepository;
  let tokens: ApiTokenRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    tokens = new ApiTokenRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const now = new Date('2030-01-01T12:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);

  async function account(): Promise<string> {
    return (await users.insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!.id;
  }

  const token = (userId: string, change: Partial<NewApiToken> = {}): NewApiToken => ({
    userId,
    name: 'script',
    prefix: `rct_${randomUUID().slice(0, 8)}`,
    hash: randomUUID(),
    scopes: ['receipts:read'],
    expiresAt: null,
    ...change,
  });

  it('stores a token, finds it by its prefix and lists the account’s own, newest first', async () => {
    const [owner, other] = [await account(), await account()];
    const first = await tokens.create(token(owner, { name: 'first', scopes: ['receipts:read', 'export'] }), 5, now);
    const second = await tokens.create(token(owner, { name: 'second', expiresAt: later(3600_000) }), 5, later(1000));
    await tokens.create(token(other), 5, now);
    if (typeof first !== 'object' || typeof second !== 'object' || !first || !second) throw new Error('not stored');
    expect(await tokens.byPrefix(first.prefix)).toMatchObject({ id: first.id, userId: owner, scopes: ['receipts:read', 'export'], revokedAt: null, lastUsedAt: null });
    expect(await tokens.byPrefix('rct_nothere')).toBeNull();
    expect((await tokens.list(owner)).map((t) => [t.name, t.userId])).toEqual([
      ['second', owner],
      ['first', owner],
    ]);
  });

  it('refuses a prefix that is taken and an account that is gone', async () => {
    const owner = await account();
    const made = token(owner);
    expect(await tokens.create(made, 5, now)).toMatchObject({ prefix: made.prefix });
    expect(await tokens.create(token(owner, { prefix: made.prefix }), 5, now)).toBe('prefix-taken');
    expect(await tokens.create(token(randomUUID()), 5, now)).toBeNull();
  });

  it('bounds the usable tokens an account holds; revoked and expired ones do not count', async () => {
    const owner = await account();
    const [a] = [await tokens.create(token(owner), 2, now), await tokens.create(token(owner, { expiresAt: later(60_000) }), 2, now)];
    expect(await tokens.create(token(owner), 2, now)).toBe('too-many');
    // Past the second one's expiry, a place is free.
    expect(await tokens.create(token(owner), 2, later(60_000))).toMatchObject({ userId: owner });
    expect(await tokens.create(token(owner), 2, later(60_000))).toBe('too-many');
    expect(await tokens.revoke(owner, (a as { id: string }).id, now)).toBe(true);
    expect(await tokens.create(token(owner), 2, later(60_000))).toMatchObject({ userId: owner });
  });

  it('revokes a token of the account once; another account’s stays', async () => {
    const [owner, other] = [await account(), await account()];
    const made = (await tokens.create(token(owner), 5, now)) as { id: string; prefix: string };
    expect(await tokens.revoke(other, made.id, now)).toBe(false);
    expect((await tokens.byPrefix(made.prefix))!.revokedAt).toBeNull();
    expect(await tokens.revoke(owner, made.id, now)).toBe(true);
    expect(await tokens.revoke(owner, made.id, later(1000))).toBe(false);
    expect((await tokens.byPrefix(made.prefix))!.revokedAt).toEqual(now);
    expect(await tokens.list(owner)).toEqual([]);
  });

  it('marks a use at most once an interval', async () => {
    const owner = await account();
    const made = (await tokens.create(token(owner), 5, now)) as { id: string; prefix: string };
    const lastUsed = async () => (await tokens.byPrefix(made.prefix))!.lastUsedAt;
    await tokens.markUsed(made.id, now, 60_000);
    expect(await lastUsed()).toEqual(now);
    await tokens.markUsed(made.id, later(59_999), 60_000);
    expect(await lastUsed()).toEqual(now);
    await tokens.markUsed(made.id, later(60_000), 60_000);
    expect(await lastUsed()).toEqual(later(60_000));
  });

  it('goes with its account', async () => {
    const owner = await account();
    const made = (await tokens.create(token(owner), 5, now)) as { prefix: string };
    await users.deleteWithData(owner);
    expect(await tokens.byPrefix(made.prefix)).toBeNull();
    expect(await database.db.select().from(apiTokens).where(eq(apiTokens.userId, owner))).toEqual([]);
  });
});
