import type { IdempotentAnswer } from './db/schema.js';
import type { FileStore } from './file-store.js';
import { keptFileOf, type IdempotencyKeyRepository } from './idempotency-key.repository.js';
import type { UploadReadRepository } from './upload-read.repository.js';
import type { UploadRepository } from './upload.repository.js';

const BATCH = 500;

// The audit trail (audit_events) is not swept: it is kept with its workspace and goes with it.

/**
 * Deletes the original files of uploads older than `before` (privacy: images are kept 90 days)
 * and marks them, so the extracted receipts stay and the sweep never visits them again.
 * Uploads still queued or processing are left alone. Returns how many originals went.
 */
export async function purgeExpiredOriginals(
  repositories: { uploads: Pick<UploadRepository, 'markOriginalsDeleted'>; uploadReads: Pick<UploadReadRepository, 'originalsDue'> },
  files: FileStore,
  before: Date,
): Promise<number> {
  const { uploads, uploadReads } = repositories;
  let purged = 0;
  for (;;) {
    const ids = await uploadReads.originalsDue(before, BATCH);
    if (ids.length === 0) return purged;
    // Files first: a crash in between leaves rows the next sweep deletes again, never a file kept.
    await files.deleteMany(ids);
    await uploads.markOriginalsDeleted(ids);
    purged += ids.length;
  }
}

/** Deletes Idempotency-Keys, the files they kept first: a crash in between leaves keys the next sweep deletes again, never a file kept. */
export async function forgetIdempotencyKeys(
  keys: Pick<IdempotencyKeyRepository, 'remove'>,
  files: FileStore,
  rows: ReadonlyArray<{ id: string; answer: IdempotentAnswer | null }>,
): Promise<void> {
  const kept = rows.map((r) => keptFileOf(r.answer)).filter((id): id is string => id !== null);
  if (kept.length > 0) await files.deleteMany(kept);
  await keys.remove(rows.map((r) => r.id));
}

/** Deletes the Idempotency-Keys created before `before` (24 hours ago) and the exports they kept. Returns how many keys went. */
export async function pruneIdempotencyKeys(keys: Pick<IdempotencyKeyRepository, 'due' | 'remove'>, files: FileStore, before: Date): Promise<number> {
  let pruned = 0;
  for (;;) {
    const rows = await keys.due(before, BATCH);
    if (rows.length === 0) return pruned;
    await forgetIdempotencyKeys(keys, files, rows);
    pruned += rows.length;
  }
}
