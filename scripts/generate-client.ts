// npm run generate:client [-- --url http://host:port]: writes cli/src/generated/api-schema.ts from the
// api's live GET /api/openapi.json. Without --url (or RECEIPTS_API_URL) it starts the api from this
// repository's sources on the local test services (PostgreSQL 127.0.0.1:5432, Redis 127.0.0.1:6379,
// or DATABASE_URL / REDIS_URL), on a database and key prefix of its own that it drops afterwards.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, openRuntime, parseConfig } from '@receipts/infra';
import { startApiServer } from '../api/src/api.server.js';
import { API_SCHEMA_FILE, apiSchemaSource } from '../cli/scripts/api-schema.js';
import { apiOnServices, provisionServices } from '../tests/support/services.js';

/** The api answering at a URL of its own for as long as `use` runs. */
async function withLocalApi<T>(use: (baseUrl: string) => Promise<T>): Promise<T> {
  const services = await provisionServices();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'generate-client-'));
  try {
    const config = parseConfig(apiOnServices(services, dataDir));
    const runtime = await openRuntime(config, createLogger({ level: 'silent', role: 'generate-client' }));
    try {
      const server = await startApiServer(runtime, { intake: false });
      try {
        return await use(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
      } finally {
        await server.close(1000);
      }
    } finally {
      await runtime.close();
    }
  } finally {
    await services.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function fetchDocument(baseUrl: string): Promise<object> {
  const res = await fetch(new URL('/api/openapi.json', baseUrl));
  if (!res.ok) throw new Error(`GET ${baseUrl}/api/openapi.json answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as object;
}

const { values } = parseArgs({ options: { url: { type: 'string' } } });
const url = values.url ?? process.env.RECEIPTS_API_URL;
const document = url ? await fetchDocument(url) : await withLocalApi(fetchDocument);
await writeFile(API_SCHEMA_FILE, await apiSchemaSource(document));
console.log(`wrote ${path.relative(process.cwd(), API_SCHEMA_FILE)} from ${url ?? 'a local api'}'s /api/openapi.json`);
