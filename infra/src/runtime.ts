import type { ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openDatabase, type Database, type DatabaseHandle } from './db/database.js';
import { createFileStore, type FileStore } from './file-store.js';
import type { Logger } from './logger.js';
import { createMailer, type Mailer } from './mailer.js';
import { createRedis, ensureRedis } from './redis.js';
import { UploadEventBus } from './upload-event-bus.js';

/** What every role of a process shares: one database, one file store, one event publisher. */
export interface Runtime {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  db: Database;
  files: FileStore;
  publisher: Redis;
  bus: UploadEventBus;
  mailer: Mailer;
  /** Database and Redis both answer. */
  ready(): Promise<{ database: boolean; redis: boolean }>;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, log: Logger): Promise<Runtime> {
  const files = createFileStore(config);
  // A bucket that is missing or refuses the keys stops the process here, not the first upload.
  await files.check();
  log.info({ storage: files.location }, 'original files store ready');
  const redisChild: ChildProcess | null = await ensureRedis(config.REDIS_URL, {
    dataDir: config.DATA_DIR,
    autostart: config.REDIS_AUTOSTART,
  });
  if (redisChild) log.info({ url: config.REDIS_URL }, 'started a local redis-server under the data directory');
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    migrate: config.RUN_MIGRATIONS,
    onStopped: (err) => log.error({ err }, 'the embedded database stopped; every statement fails until the process restarts'),
  });
  log.info({ database: database.kind, migrated: config.RUN_MIGRATIONS || database.kind === 'pglite' }, 'database ready');
  const publisher = createRedis(config.REDIS_URL, { enableOfflineQueue: false });
  publisher.on('error', (err) => log.warn({ err: err.message }, 'redis publisher error'));
  return {
    config,
    log,
    database,
    db: database.db,
    files,
    publisher,
    bus: new UploadEventBus(publisher, config.QUEUE_PREFIX),
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log }),
    async ready() {
      const [database_, redis] = await Promise.allSettled([database.ping(), publisher.ping()]);
      return { database: database_.status === 'fulfilled', redis: redis.status === 'fulfilled' };
    },
    async close() {
      publisher.disconnect();
      await database.close();
      redisChild?.kill();
    },
  };
}

/** Runs `stop` on the first SIGTERM or SIGINT; a second signal while stopping changes nothing. */
export function onStopSignal(log: Logger, message: string, stop: () => void): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, message);
      stop();
    });
  }
}
