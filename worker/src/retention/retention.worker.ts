import { PURGE_ORIGINALS_JOB } from '@receipts/common';
import { purgeExpiredOriginals, startMaintenance, type Config, type FileStore, type Logger, type UploadReadRepository, type UploadRepository } from '@receipts/infra';

const DAY_MS = 24 * 3600_000;

/** The repeatable retention sweep: originals are deleted ORIGINAL_RETENTION_DAYS after upload. */
export function startRetentionWorker(deps: { config: Config; uploads: UploadRepository; uploadReads: UploadReadRepository; files: FileStore; log: Logger }) {
  const { config, uploads, uploadReads, files, log } = deps;
  return startMaintenance({
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    everyMs: config.RETENTION_SWEEP_MS,
    log,
    handlers: {
      [PURGE_ORIGINALS_JOB]: async () => {
        const before = new Date(Date.now() - config.ORIGINAL_RETENTION_DAYS * DAY_MS);
        const purged = await purgeExpiredOriginals({ uploads, uploadReads }, files, before);
        if (purged > 0) log.info({ purged, before }, 'original files past retention deleted');
      },
    },
  });
}
