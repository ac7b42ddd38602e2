import { IDEMPOTENCY_KEY_TTL_MS, PRUNE_IDEMPOTENCY_KEYS_JOB, PURGE_ORIGINALS_JOB } from '@receipts/common';
import {
  pruneIdempotencyKeys,
  purgeExpiredOriginals,
  startMaintenance,
  type Config,
  type FileStore,
  type IdempotencyKeyRepository,
  type Logger,
  type UploadReadRepository,
  type UploadRepository,
} from '@receipts/infra';

const DAY_MS = 24 * 3600_000;

/**
 * The repeatable retention sweeps: originals are deleted ORIGINAL_RETENTION_DAYS after upload,
 * Idempotency-Keys (and the exports they kept) after their 24 hours.
 */
export function startRetentionWorker(deps: {
  config: Config;
  uploads: UploadRepository;
  uploadReads: UploadReadRepository;
  idempotencyKeys: IdempotencyKeyRepository;
  files: FileStore;
  log: Logger;
}) {
  const { config, uploads, uploadReads, idempotencyKeys, files, log } = deps;
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
      [PRUNE_IDEMPOTENCY_KEYS_JOB]: async () => {
        const before = new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS);
        const pruned = await pruneIdempotencyKeys(idempotencyKeys, files, before);
        if (pruned > 0) log.info({ pruned, before }, 'idempotency keys past 24 hours deleted');
      },
    },
  });
}
