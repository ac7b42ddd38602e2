import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';
import { UserRepository } from '../user.repository.js';
import type { Database } from './database.js';
import * as schema from './schema.js';

// Real PostgreSQL: links mailed before the two token tables became one keep working after the
// upgrade, once, and used or expired ones are not carried over.
describe('the mail tokens migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0016_mail_tokens');

  it('carries the live reset and confirmation links over, and they work once', async () => {
    await database.migrateBefore();
    const { rows } = await database.query<{ id: string }>(`INSERT INTO users (email, username, password_hash) VALUES ('a@example.test', 'a', 'x') RETURNING id`);
    const userId = rows[0]!.id;
    await database.query(
      `INSERT INTO password_reset_tokens (token_hash, user_id, expires_at, used_at) VALUES
        ('reset-live', $1, now() + interval '1 hour', NULL),
        ('reset-used', $1, now() + interval '1 hour', now()),
        ('reset-expired', $1, now() - interval '1 minute', NULL)`,
      [userId],
    );
    await database.query(
      `INSERT INTO email_verification_tokens (token_hash, user_id, email, expires_at) VALUES
        ('confirm-live', $1, 'a@example.test', now() + interval '1 day'),
        ('confirm-expired', $1, 'a@example.test', now() - interval '1 minute')`,
      [userId],
    );
    await database.migrateAll();

    const { rows: carried } = await database.query('SELECT token_hash, purpose, email FROM mail_tokens ORDER BY token_hash');
    expect(carried).toEqual([
      { token_hash: 'confirm-live', purpose: 'email-verification', email: 'a@example.test' },
      { token_hash: 'reset-live', purpose: 'password-reset', email: null },
    ]);
    const { rows: old } = await database.query(`SELECT to_regclass('password_reset_tokens') AS reset, to_regclass('email_verification_tokens') AS confirm`);
    expect(old).toEqual([{ reset: null, confirm: null }]);

    const users = new UserRepository(drizzle(database.client(), { schema }) as unknown as Database);
    expect(await users.confirmEmail('confirm-live', userId)).toBe(true);
    expect(await users.confirmEmail('confirm-live', userId)).toBe(false);
    expect(await users.resetPassword('reset-live', 'y')).toBe(true);
    expect(await users.resetPassword('reset-live', 'y')).toBe(false);
  });
});
