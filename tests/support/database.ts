import { openDatabase, type Database } from '@receipts/infra';
import { provisionServices, type TestServices } from './services.js';

export interface TestDatabase {
  db: Database;
  services: TestServices;
  close(): Promise<void>;
}

/** A migrated PostgreSQL database of this run's own (and a Redis key prefix), for service tests beside the code. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const services = await provisionServices();
  const handle = await openDatabase({ url: services.databaseUrl, pgliteDir: '', migrate: true });
  return {
    db: handle.db,
    services,
    async close() {
      await handle.close();
      await services.cleanup();
    },
  };
}
