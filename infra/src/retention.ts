import type { FileStore } from './file-store.js';
import type { UploadReadRepository } from './upload-read.repository.js';
import type { UploadRepository } from './upload.repository.js';

const BATCH = 500;

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
