import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { asPglite, PgliteThread } from './pglite-thread.client.js';
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The database or a transaction of it: what a statement runs on. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** Throws when the database does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** Any constant: serialises migrations when several processes start at once. */
const MIGRATION_LOCK_KEY = 727_274_001;

/**
 * Opens the database and applies pending migrations: PostgreSQL when a URL is given, else PGlite
 * (always migrated: it belongs to this process). `migrate: false` leaves a server's schema to
 * another process (compose: the api migrates, workers start after it).
 */
export async function openDatabase(options: {
  url?: string;
  pgliteDir: string;
  migrate?: boolean;
  /** The embedded database's thread died (told once): the operator's log should say so. */
  onStopped?: (err: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options.migrate ?? true);
  return openPglite(options.pgliteDir, options.onStopped);
}

async function openPostgres(url: string, migrate: boolean): Promise<DatabaseHandle> {
  if (migrate) {
    const migrator = new pg.Client({ connectionString: url });
    await migrator.connect();
    try {
      await migrator.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(migrator), { migrationsFolder });
    } finally {
      await migrator.end();
    }
  }
  // Idle connections are kept 5 minutes, not pg's 10 s: a new server process costs PostgreSQL about
  // 0.1 CPU-s to start and warm its caches here, and with 10 s every batch of uploads a quarter of a
  // minute after the last opened the pool's connections again (40-receipt batches: 2.1 CPU-s of
  // PostgreSQL a batch against 0.9 with the connections kept).
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 5 * 60_000 });
  // An idle client losing its server is reported here; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

/**
 * The embedded database: PGlite on a thread of its own (PgliteThread), opened and migrated there.
 */
async function openPglite(dir: string, onStopped?: (err: Error) => void): Promise<DatabaseHandle> {
  await mkdir(dir, { recursive: true });
  const client = await PgliteThread.open({ dir, migrationsFolder }, onStopped);
  const db = drizzlePglite(asPglite(client), { schema });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    close: () => client.close(),
  };
}
