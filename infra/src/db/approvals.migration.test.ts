import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

// Real PostgreSQL: uploads made before the approval step need no approval, whoever made them and
// wherever they are; none is in a report; every one of them is still there.
describe('the approvals migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0024_approvals');

  it('keeps every upload and makes each one need no approval', async () => {
    await database.migrateBefore();
    const [user] = (await database.query<{ id: string }>(`INSERT INTO users (email, username, password_hash) VALUES ('m@example.test', 'm', 'x') RETURNING id`)).rows;
    const [team] = (await database.query<{ id: string }>(`INSERT INTO workspaces (name) VALUES ('Team') RETURNING id`)).rows;
    await database.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'member')`, [team!.id, user!.id]);
    await database.query(
      `INSERT INTO uploads (id, workspace_id, user_id, anon_id, filename, mime_type, size, sha256, lane)
       VALUES (gen_random_uuid(), $1, $2, NULL, 'team.jpg', 'image/jpeg', 1, 'a', 'standard'),
              (gen_random_uuid(), NULL, NULL, gen_random_uuid(), 'anon.jpg', 'image/jpeg', 1, 'b', 'standard')`,
      [team!.id, user!.id],
    );
    await database.migrateAll();
    const { rows } = await database.query('SELECT filename, approval_status, approval_comment, report_id FROM uploads ORDER BY filename');
    expect(rows).toEqual([
      { filename: 'anon.jpg', approval_status: 'not-required', approval_comment: null, report_id: null },
      { filename: 'team.jpg', approval_status: 'not-required', approval_comment: null, report_id: null },
    ]);
  });
});
