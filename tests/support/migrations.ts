import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { provisionServices, type TestServices } from './services.js';

/** The project's migrations, as the api applies them. */
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../infra/drizzle', import.meta.url));

/** The migrations up to the one tagged `tag` (including it when `through`), in a folder of their own. */
async function migrationsBefore(tag: string, through = false): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const upTo = journal.entries.findIndex((e) => e.tag === tag);
  if (upTo < 0) throw new Error(`no migration tagged ${tag}`);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, through ? upTo + 1 : upTo) }));
  return folder;
}

/**
 * A real PostgreSQL database of the suite's own, to test what the migration tagged `tag` does to
 * data: `migrateBefore()` brings it to the state before that migration, `migrateThrough()` runs
 * it alone, `migrateAll()` runs the rest. Set up before the suite's tests and removed after them.
 */
export function databaseAtMigration(tag: string) {
  let services: TestServices | undefined;
  let client: pg.Client | undefined;
  let before: string | undefined;
  let through: string | undefined;
  beforeAll(async () => {
    services = await provisionServices();
    client = new pg.Client({ connectionString: services.databaseUrl });
    await client.connect();
    before = await migrationsBefore(tag);
    through = await migrationsBefore(tag, true);
  });
  afterAll(async () => {
    await client?.end();
    await services?.cleanup();
    if (before) await rm(before, { recursive: true, force: true });
    if (through) await rm(through, { recursive: true, force: true });
  });
  return {
    query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => client!.query<R>(text, values),
    /** The connection itself, for code under test that takes one. */
    client: () => client!,
    migrateBefore: () => migrate(drizzle(client!), { migrationsFolder: before! }),
    /** Runs the migration tagged `tag` and none after it: for data a later migration changes again. */
    migrateThrough: () => migrate(drizzle(client!), { migrationsFolder: through! }),
    migrateAll: () => migrate(drizzle(client!), { migrationsFolder: MIGRATIONS_FOLDER }),
    /** A receipt named `name` (its merchant) with those issues and acceptances as stored, on an upload of its own. */
    insertReceipt: async (name: string, issues: unknown[], accepted: unknown[]) => {
      const upload = await client!.query<{ id: string }>(
        `INSERT INTO uploads (id, filename, mime_type, size, sha256, lane) VALUES (gen_random_uuid(), $1, 'image/jpeg', 10, $1, 'standard') RETURNING id`,
        [name],
      );
      await client!.query(
        `INSERT INTO receipts (upload_id, merchant_name, category, quality, items, raw_text, issues, accepted_issues, valid) VALUES ($1, $2, 'other', 0.9, '[]', '', $3, $4, false)`,
        [upload.rows[0]!.id, name, JSON.stringify(issues), JSON.stringify(accepted)],
      );
    },
  };
}
