import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

// Real PostgreSQL: the accounts that exist when sign-ins start being noted count as signed in
// before when they show it, so they are welcomed back, not welcomed, at their next sign-in.
describe('the last sign-in migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0011_last_sign_in');

  it('marks the accounts that show a sign-in, and leaves one that never signed in unmarked', async () => {
    await database.migrateBefore();
    await database.query(`INSERT INTO users (email, username, password_hash, created_before_verification) VALUES
      ('old@example.test', 'old', 'x', true),
      ('confirmed@example.test', 'confirmed', 'x', false),
      ('uploader@example.test', 'uploader', 'x', false),
      ('waiting@example.test', 'waiting', 'x', false)`);
    await database.query(`UPDATE users SET email_verified_at = now() WHERE email = 'confirmed@example.test'`);
    await database.query(`INSERT INTO uploads (id, user_id, filename, mime_type, size, sha256, lane)
      SELECT gen_random_uuid(), id, 'r.jpg', 'image/jpeg', 1, 'x', 'standard' FROM users WHERE email = 'uploader@example.test'`);
    await database.migrateAll();
    const { rows } = await database.query<{ email: string; signed_in: boolean }>('SELECT email, last_signed_in_at IS NOT NULL AS signed_in FROM users ORDER BY email');
    expect(rows).toEqual([
      { email: 'confirmed@example.test', signed_in: true },
      { email: 'old@example.test', signed_in: true },
      { email: 'uploader@example.test', signed_in: true },
      { email: 'waiting@example.test', signed_in: false },
    ]);
  });
});
