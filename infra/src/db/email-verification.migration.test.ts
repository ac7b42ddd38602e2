import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

// Real PostgreSQL: accounts that exist when the e-mail verification migration runs are marked
// as made before addresses were confirmed; accounts made after it are not.
describe('the e-mail verification migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0006_email_verification');

  it('counts the accounts it finds as made before confirmation, and no later one', async () => {
    await database.migrateBefore();
    await database.query(`INSERT INTO users (email, username, password_hash) VALUES ('old@example.test', 'old', 'x')`);
    await database.migrateAll();
    await database.query(`INSERT INTO users (email, username, password_hash) VALUES ('new@example.test', 'new', 'x')`);
    const { rows } = await database.query('SELECT email, created_before_verification, email_verified_at FROM users ORDER BY email');
    expect(rows).toEqual([
      { email: 'new@example.test', created_before_verification: false, email_verified_at: null },
      { email: 'old@example.test', created_before_verification: true, email_verified_at: null },
    ]);
  });
});
