import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '@receipts/infra';
import { provisionServices, type TestServices } from './services.js';

export interface TestDatabase {
  db: Database;
  services: TestServices;
  close(): Promise<void>;
}

/**
 * A migrated database of this run's own (and a Redis key prefix), for service tests beside the
 * code: PostgreSQL, or the embedded PGlite in a directory of its own.
 */
export async function openTestDatabase(kind: 'postgres' | 'pglite' = 'postgres'): Promise<TestDatabase> {
  const services = await provisionServices();
  const pgliteDir = kind === 'pglite' ? await mkdtemp(path.join(os.tmpdir(), 'receipts-pglite-')) : '';
  const handle = await openDatabase({ url: kind === 'postgres' ? services.databaseUrl : undefined, pgliteDir, migrate: true });
  return {
    db: handle.db,
    services,
    async close() {
      await handle.close();
      await services.cleanup();
      if (pgliteDir) await rm(pgliteDir, { recursive: true, force: true });
    },
  };
}
