import { and, asc, inArray, isNull, lt, notInArray } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { uploads } from './db/schema.js';
import type { FileStore } from './file-store.js';

const BATCH = 500;

/**
 * Deletes the original files of uploads older than `before` (privacy: images are kept 90 days)
 * and marks them, so the extracted receipts stay and the sweep never visits them again.
 * Uploads still queued or processing are left alone. Returns how many originals went.
 */
export async function purgeExpiredOriginals(db: Database, files: FileStore, before: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    const due = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(isNull(uploads.originalDeletedAt), lt(uploads.createdAt, before), notInArray(uploads.status, ['queued', 'processing'])))
      .orderBy(asc(uploads.createdAt))
      .limit(BATCH);
    if (due.length === 0) return purged;
    const ids = due.map((u) => u.id);
    // Files first: a crash in between leaves rows the next sweep deletes again, never a file kept.
    for (const id of ids) await files.delete(id);
    await db.update(uploads).set({ originalDeletedAt: new Date() }).where(inArray(uploads.id, ids));
    purged += ids.length;
  }
}
