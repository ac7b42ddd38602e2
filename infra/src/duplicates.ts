import type { DuplicateOf } from '@receipts/common';
import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from './db/database.js';
import { receipts, uploads, type UploadRow } from './db/schema.js';

type Executor = Pick<Database, 'select' | 'update'>;
type Owned = Pick<UploadRow, 'userId' | 'anonId'>;

/** Uploads of the same owner as `upload`: the account, or the anonymous session. */
function sameOwner(upload: Owned): SQL {
  return upload.userId ? eq(uploads.userId, upload.userId) : and(eq(uploads.anonId, upload.anonId!), isNull(uploads.userId))!;
}

/** Statuses of an upload that stands for a receipt (a failed or cancelled one does not). */
const LIVE = ['queued', 'processing', 'completed'] as const;

/** The owner's earliest live upload of the very same bytes, checked before a new upload is written. */
export async function findSameFile(db: Executor, owner: Owned, sha256: string): Promise<{ id: string } | null> {
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(sameOwner(owner), eq(uploads.sha256, sha256), inArray(uploads.status, [...LIVE])))
    .orderBy(asc(uploads.createdAt), asc(uploads.id))
    .limit(1);
  return row ?? null;
}

/** Merchant names compared on their letters and digits, whatever the case and punctuation. */
const merchantKey = (column: SQL | typeof receipts.merchantName) => sql`upper(regexp_replace(${column}, '[^[:alnum:]]', '', 'g'))`;

/**
 * Flags (or clears) "same receipt" duplicates after an upload's receipt was written or corrected:
 * another receipt of the owner with the same merchant, date and total makes the later of the two
 * a possible duplicate of the earlier. A same-file flag and an owner's "keep" are left as they are.
 * Returns this upload's flag afterwards.
 */
export async function refreshSameReceiptFlags(db: Database, uploadId: string): Promise<DuplicateOf | null> {
  const [self] = await db
    .select({ upload: uploads, merchantName: receipts.merchantName, date: receipts.date, total: receipts.total })
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
  if (self.merchantName && self.date && self.total !== null) {
    [match] = await db
      .select({ id: uploads.id, createdAt: uploads.createdAt })
      .from(uploads)
      .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
      .where(
        and(
          sameOwner(upload),
          ne(uploads.id, upload.id),
          eq(receipts.date, self.date),
          eq(receipts.total, self.total),
          sql`${merchantKey(receipts.merchantName)} = ${merchantKey(sql`${self.merchantName}`)}`,
          // Never flag an upload as a duplicate of one that is itself flagged as a duplicate of it.
          or(isNull(uploads.duplicateOf), ne(uploads.duplicateOf, upload.id)),
        ),
      )
      .orderBy(asc(uploads.createdAt), asc(uploads.id))
      .limit(1);
  }
  const earlier = match && (match.createdAt < upload.createdAt || (match.createdAt.getTime() === upload.createdAt.getTime() && match.id < upload.id));

  if (upload.duplicateReason !== 'same-file' && !upload.duplicateKept) {
    const duplicateOf = match && earlier ? match.id : null;
    if (duplicateOf !== upload.duplicateOf) {
      await db
        .update(uploads)
        .set({ duplicateOf, duplicateReason: duplicateOf ? 'same-receipt' : null, updatedAt: new Date() })
        .where(eq(uploads.id, upload.id));
    }
  }
  if (match && !earlier) {
    // The later twin was stored first: it is the one to flag.
    await db
      .update(uploads)
      .set({ duplicateOf: upload.id, duplicateReason: 'same-receipt', updatedAt: new Date() })
      .where(and(eq(uploads.id, match.id), isNull(uploads.duplicateOf), eq(uploads.duplicateKept, false)));
  }
  for (const dependant of dependants) {
    if (dependant.id !== match?.id) await refreshSameReceiptFlags(db, dependant.id);
  }
  return duplicateOfUpload(db, upload.id);
}

const original = alias(uploads, 'original');

/** An upload's duplicate flag with the earlier upload's file name, as the views show it. */
export async function duplicateOfUpload(db: Executor, uploadId: string): Promise<DuplicateOf | null> {
  const [row] = await db
    .select({ uploadId: original.id, filename: original.filename, reason: uploads.duplicateReason })
    .from(uploads)
    .innerJoin(original, eq(original.id, uploads.duplicateOf))
    .where(eq(uploads.id, uploadId));
  return row?.reason ? { uploadId: row.uploadId, filename: row.filename, reason: row.reason } : null;
}

/** Select this beside an upload (left-joined as `duplicateOriginal`) to build its `duplicateOf`. */
export const duplicateOriginal = original;

export function toDuplicateOf(upload: Pick<UploadRow, 'duplicateOf' | 'duplicateReason'>, originalFilename: string | null | undefined): DuplicateOf | undefined {
  if (!upload.duplicateOf || !upload.duplicateReason || originalFilename == null) return undefined;
  return { uploadId: upload.duplicateOf, filename: originalFilename, reason: upload.duplicateReason };
}
