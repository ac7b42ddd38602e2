import { laterTwin, type DuplicateOf, type UploadStatus } from '@receipts/common';
import { and, asc, eq, inArray, isNull, ne, or, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { receipts, uploads, type UploadRow } from './db/schema.js';
import type { QuotaOwner } from './quota.service.js';
import { duplicateOriginal, ownedBy, sameUploaderAs } from './upload-scope.js';

/** Statuses of an upload that stands for a receipt (a failed or cancelled one does not). */
const LIVE: UploadStatus[] = ['queued', 'processing', 'completed'];

/**
 * The owner's earliest live upload of the very same bytes, as a query: `owned` and `sha256` may
 * be placeholders, as in the upload's prepared insert, which flags a new upload with it.
 */
export function sameFileQuery(db: Database, owned: SQL, sha256: Placeholder | string) {
  return db
    .select({ id: uploads.id, filename: uploads.filename, createdAt: uploads.createdAt })
    .from(uploads)
    .where(and(owned, eq(uploads.sha256, sha256), inArray(uploads.status, LIVE)))
    .orderBy(asc(uploads.createdAt), asc(uploads.id))
    .limit(1);
}

/**
 * Possible duplicates: the same file again (flagged as the upload is recorded, by
 * `sameFileQuery`), and the same receipt (merchant, date and total) once it is read or corrected.
 */
export class UploadDuplicateRepository {
  constructor(private readonly db: Database) {}

  /** The owner's earliest live upload of the very same bytes (the one a new upload of them would be flagged a duplicate of), or null. */
  async sameFile(owner: QuotaOwner, sha256: string): Promise<Pick<UploadRow, 'id' | 'filename' | 'createdAt'> | null> {
    const [row] = await sameFileQuery(this.db, ownedBy(owner), sha256);
    return row ?? null;
  }

  /** The owner keeps an upload flagged as a possible duplicate: the flag goes and is not set again. */
  async keep(owner: QuotaOwner, id: string): Promise<boolean> {
    const [kept] = await this.db
      .update(uploads)
      .set({ duplicateOf: null, duplicateReason: null, duplicateKept: true, updatedAt: new Date() })
      .where(and(eq(uploads.id, id), ownedBy(owner)))
      .returning({ id: uploads.id });
    return Boolean(kept);
  }

  /**
   * Flags (or clears) "same receipt" duplicates after an upload's receipt was written or
   * corrected: another receipt of the owner with the same merchant, date and total makes the
   * later of the two a possible duplicate of the earlier. A same-file flag and an owner's
   * "keep" are left as they are. Returns this upload's flag afterwards.
   */
  async refreshDuplicateFlags(uploadId: string): Promise<DuplicateOf | null> {
    const { db } = this;
    const [self] = await db
      .select({ upload: uploads, merchantName: receipts.merchantName, merchantKey: receipts.merchantKey, date: receipts.date, total: receipts.total })
      .from(uploads)
      .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
      .where(eq(uploads.id, uploadId));
    if (!self) return null;
    const { upload } = self;

    // Uploads flagged as repeating this one may no longer match it after a correction.
    const dependants = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.duplicateOf, upload.id), eq(uploads.duplicateReason, 'same-receipt')));

    let match: { id: string; createdAt: Date } | undefined;
    if (self.merchantName && self.merchantKey !== null && self.date && self.total !== null) {
      [match] = await db
        .select({ id: uploads.id, createdAt: uploads.createdAt })
        .from(uploads)
        .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
        .where(
          and(
            sameUploaderAs(upload),
            ne(uploads.id, upload.id),
            eq(receipts.date, self.date),
            eq(receipts.total, self.total),
            eq(receipts.merchantKey, self.merchantKey),
            // Never flag an upload as a duplicate of one that is itself flagged as a duplicate of it.
            or(isNull(uploads.duplicateOf), ne(uploads.duplicateOf, upload.id)),
          ),
        )
        .orderBy(asc(uploads.createdAt), asc(uploads.id))
        .limit(1);
    }
    const later = match && laterTwin(match, upload);

    if (upload.duplicateReason !== 'same-file' && !upload.duplicateKept) {
      const duplicateOf = match && later === upload ? match.id : null;
      if (duplicateOf !== upload.duplicateOf) {
        await db
          .update(uploads)
          .set({ duplicateOf, duplicateReason: duplicateOf ? 'same-receipt' : null, updatedAt: new Date() })
          .where(eq(uploads.id, upload.id));
      }
    }
    if (match && later === match) {
      // The later twin was stored first: it is the one to flag.
      await db
        .update(uploads)
        .set({ duplicateOf: upload.id, duplicateReason: 'same-receipt', updatedAt: new Date() })
        .where(and(eq(uploads.id, match.id), isNull(uploads.duplicateOf), eq(uploads.duplicateKept, false)));
    }
    for (const dependant of dependants) {
      if (dependant.id !== match?.id) await this.refreshDuplicateFlags(dependant.id);
    }
    const [flag] = await db
      .select({ uploadId: duplicateOriginal.id, filename: duplicateOriginal.filename, reason: uploads.duplicateReason })
      .from(uploads)
      .innerJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf))
      .where(eq(uploads.id, upload.id));
    return flag?.reason ? { uploadId: flag.uploadId, filename: flag.filename, reason: flag.reason } : null;
  }
}
