import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServices, type TestServices } from '../../../tests/support/services.js';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Real PostgreSQL: accounts that exist when the e-mail verification migration runs are marked
// as made before addresses were confirmed; accounts made after it are not.
describe('the e-mail verification migration', { timeout: 60_000 }, () => {
  let services: TestServices;
  let client: pg.Client;
  let before: string;

  beforeAll(async () => {
    services = await provisionServices();
    client = new pg.Client({ connectionString: services.databaseUrl });
    await client.connect();
    // The migrations up to the one before it, in a folder of their own.
    before = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(migrationsFolder, before, { recursive: true });
    const journal = JSON.parse(await readFile(path.join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const upTo = journal.entries.findIndex((e) => e.tag === '0006_email_verification');
    await writeFile(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  });

  afterAll(async () => {
    await client?.end();
    await services?.cleanup();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('counts the accounts it finds as made before confirmation, and no later one', async () => {
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: before });
    await client.query(`INSERT INTO users (email, username, password_hash) VALUES ('old@example.test', 'old', 'x')`);
    await migrate(db, { migrationsFolder });
    await client.query(`INSERT INTO users (email, username, password_hash) VALUES ('new@example.test', 'new', 'x')`);
    const { rows } = await client.query('SELECT email, created_before_verification, email_verified_at FROM users ORDER BY email');
    expect(rows).toEqual([
      { email: 'new@example.test', created_before_verification: false, email_verified_at: null },
      { email: 'old@example.test', created_before_verification: true, email_verified_at: null },
    ]);
  });
});
