import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';

export interface TestServices {
  /** A database of this run's own. */
  databaseUrl: string;
  redisUrl: string;
  /** BullMQ and channel prefix of this run's own. */
  prefix: string;
  cleanup(): Promise<void>;
}

/**
 * The settings of an api process of its own on these services, answering on 127.0.0.1 at a free
 * port with its files under `dataDir`; `env` adds to them or overrides them.
 */
export function apiOnServices(services: TestServices, dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    QUEUE_PREFIX: services.prefix,
    REDIS_AUTOSTART: 'false',
    ROLES: 'api',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  };
}

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function dockerReachable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

/**
 * Real PostgreSQL and Redis for integration tests: containers when a Docker engine is
 * reachable, else DATABASE_URL / REDIS_URL, else the local services on 127.0.0.1.
 * Each call isolates itself with its own database and key prefix.
 */
export async function provisionServices(): Promise<TestServices> {
  const stops: Array<() => Promise<unknown>> = [];
  let adminUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  let redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  if (dockerReachable() && !process.env.DATABASE_URL) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const postgres = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    stops.push(() => postgres.stop(), () => redis.stop());
    adminUrl = `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
    redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
  }
  const suffix = randomBytes(5).toString('hex');
  const dbName = `receipts_test_${suffix}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${dbName}`;
  const prefix = `test-${suffix}`;
  return {
    databaseUrl: databaseUrl.toString(),
    redisUrl,
    prefix,
    async cleanup() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await client.end();
      const redis = new Redis(redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
      for (const stop of stops) await stop();
    },
  };
}
