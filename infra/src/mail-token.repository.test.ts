import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import type { MailTokenPurpose } from './db/schema.js';
import { consumeMailToken, expireMailTokens, isMailTokenUsable, issueMailToken } from './mail-token.repository.js';
import { UserRepository } from './user.repository.js';

// Real PostgreSQL: one use, expiry and "only the newest link counts" live in the SQL statements.
describe('mail tokens on postgres', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let users: UserRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const now = new Date('2030-01-01T12:00:00Z');
  const inAnHour = new Date(now.getTime() + 3600_000);

  async function account() {
    const email = `${randomUUID()}@example.test`;
    const user = await users.insert({ email, username: 'u', passwordHash: 'x' });
    return { userId: user!.id, email };
  }

  async function issue(purpose: MailTokenPurpose, to: { userId: string; email: string }, expiresAt = inAnHour) {
    const tokenHash = randomUUID();
    await database.db.transaction((tx) => issueMailToken(tx, purpose, { tokenHash, ...to, expiresAt }));
    return tokenHash;
  }

  const usable = (purpose: MailTokenPurpose, tokenHash: string, at = now) => isMailTokenUsable(database.db, purpose, tokenHash, at);

  it('uses a token once, for its account', async () => {
    const to = await account();
    const token = await issue('password-reset', to);
    expect(await usable('password-reset', token)).toBe(true);
    expect(await consumeMailToken(database.db, 'password-reset', token, now)).toBe(to.userId);
    expect(await consumeMailToken(database.db, 'password-reset', token, now)).toBeNull();
    expect(await usable('password-reset', token)).toBe(false);
  });

  it('refuses a token after it expires, an unknown one, and one of another purpose', async () => {
    const to = await account();
    const token = await issue('email-verification', to);
    expect(await usable('email-verification', token, inAnHour)).toBe(false);
    expect(await consumeMailToken(database.db, 'email-verification', token, inAnHour)).toBeNull();
    expect(await consumeMailToken(database.db, 'email-verification', randomUUID(), now)).toBeNull();
    expect(await usable('password-reset', token)).toBe(false);
    expect(await consumeMailToken(database.db, 'password-reset', token, now)).toBeNull();
    expect(await consumeMailToken(database.db, 'email-verification', token, now)).toBe(to.userId);
  });

  it('uses a token only for the account and address it was mailed to, when asked', async () => {
    const to = await account();
    const other = await account();
    const token = await issue('email-verification', to);
    expect(await consumeMailToken(database.db, 'email-verification', token, now, { userId: other.userId, email: to.email })).toBeNull();
    expect(await consumeMailToken(database.db, 'email-verification', token, now, { userId: to.userId, email: other.email })).toBeNull();
    expect(await consumeMailToken(database.db, 'email-verification', token, now, to)).toBe(to.userId);
  });

  it('keeps only the newest link of a purpose, and leaves the other purpose’s alone', async () => {
    const to = await account();
    const reset = await issue('password-reset', to);
    const first = await issue('email-verification', to);
    const second = await issue('email-verification', to);
    expect(await usable('email-verification', first)).toBe(false);
    expect(await usable('email-verification', second)).toBe(true);
    expect(await usable('password-reset', reset)).toBe(true);
  });

  it('ends an account’s unused links of one purpose or of all, and no other account’s', async () => {
    const to = await account();
    const other = await account();
    const reset = await issue('password-reset', to);
    const confirm = await issue('email-verification', to);
    const othersReset = await issue('password-reset', other);
    await expireMailTokens(database.db, to.userId, 'password-reset');
    expect(await usable('password-reset', reset)).toBe(false);
    expect(await usable('email-verification', confirm)).toBe(true);
    await expireMailTokens(database.db, to.userId);
    expect(await usable('email-verification', confirm)).toBe(false);
    expect(await usable('password-reset', othersReset)).toBe(true);
  });
});
