import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServices, type TestServices } from './support/services.js';
import { startServiceProcess } from './support/service-process.js';

/** The quick start's promises: PGlite under DATA_DIR, a Redis started when none answers, or a clear message. */
describe('embedded defaults', () => {
  let services: TestServices;
  let dataDir: string;
  const freeRedisPort = 20000 + (process.pid % 20000);

  beforeAll(async () => {
    services = await provisionServices();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'receipts-embedded-'));
  });

  afterAll(async () => {
    await services?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts its own redis-server and PGlite when nothing else is configured', async () => {
    const service = await startServiceProcess('api', {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${freeRedisPort}`,
      QUEUE_PREFIX: services.prefix,
      WORKER_CONCURRENCY: '1',
    });
    try {
      const base = `http://127.0.0.1:${service.port}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ database: true, redis: true });
      expect(service.output()).toContain('"database":"pglite"');
    } finally {
      await service.stop();
    }
  });

  it('says how to get Redis when none answers and it may not start one', async () => {
    await expect(
      startServiceProcess('api', {
        PORT: '0',
        DATA_DIR: dataDir,
        REDIS_URL: `redis://127.0.0.1:${freeRedisPort + 1}`,
        REDIS_AUTOSTART: 'false',
      }),
    ).rejects.toThrow(/No Redis answers at redis:\/\/127\.0\.0\.1:\d+\. Start one with:/);
  });

  it('exits listing every bad setting', async () => {
    await expect(startServiceProcess('api', { PORT: 'eighty', WORKER_CONCURRENCY: 'many' })).rejects.toThrow(
      /Invalid configuration:\n {2}- PORT: .*\n {2}- WORKER_CONCURRENCY: /,
    );
  });
});
