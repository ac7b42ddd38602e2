import { LANE_PRIORITY, MAINTENANCE_QUEUE, PURGE_ORIGINALS_JOB } from '@receipts/common';
import { createRedis, purgeExpiredOriginals, type Config, type Database, type FileStore, type Logger } from '@receipts/infra';
import { Queue, Worker } from 'bullmq';

const DAY_MS = 24 * 3600_000;

export interface RetentionHandle {
  close(): Promise<void>;
}

/**
 * The repeatable retention sweep: originals are deleted ORIGINAL_RETENTION_DAYS after upload.
 * Every worker process upserts the same scheduler (one schedule, whoever starts first) and
 * BullMQ hands each run to exactly one of them.
 */
export async function startRetentionWorker(deps: { config: Config; db: Database; files: FileStore; log: Logger }): Promise<RetentionHandle> {
  const { config, db, files, log } = deps;
  const queue = new Queue(MAINTENANCE_QUEUE, { connection: createRedis(config.REDIS_URL), prefix: config.QUEUE_PREFIX });
  queue.on('error', (err) => log.warn({ err: err.message }, 'maintenance queue error'));
  await queue.upsertJobScheduler(
    PURGE_ORIGINALS_JOB,
    { every: config.RETENTION_SWEEP_MS },
    {
      name: PURGE_ORIGINALS_JOB,
      // Housekeeping rides the standard lane's priority: it is never urgent.
      data: { lane: 'standard' },
      opts: { priority: LANE_PRIORITY.standard, removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } },
    },
  );
  const connection = createRedis(config.REDIS_URL);
  const worker = new Worker(
    MAINTENANCE_QUEUE,
    async () => {
      const before = new Date(Date.now() - config.ORIGINAL_RETENTION_DAYS * DAY_MS);
      const purged = await purgeExpiredOriginals(db, files, before);
      if (purged > 0) log.info({ purged, before }, 'original files past retention deleted');
      return { purged };
    },
    { connection, prefix: config.QUEUE_PREFIX, concurrency: 1 },
  );
  worker.on('error', (err) => log.error({ err }, 'maintenance worker error'));
  worker.on('failed', (_job, err) => log.warn({ err: err.message }, 'retention sweep failed; the next run tries again'));
  return {
    async close() {
      await worker.close();
      await Promise.allSettled([queue.close(), connection.quit()]);
    },
  };
}
