import {
  applyPatch,
  isExportValid,
  receiptChanges,
  validateReceipt,
  type EngineName,
  type LibraryReceipt,
  type ReceiptDetail,
  type ReceiptList,
  type ReceiptListQuery,
  type ReceiptPatch,
} from '@receipts/common';
import {
  duplicateOriginal,
  receiptColumns,
  refreshSameReceiptFlags,
  schema,
  toDuplicateOf,
  toReceiptView,
  type Database,
  type ReceiptRow,
  type UploadRow,
} from '@receipts/infra';
import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';
import { isUuid, ownedBy, type UploadService } from '../upload.service.js';
import { receiptPreviewColumns, receiptScope } from './receipt-scope.js';

const { uploads, receipts, receiptEdits } = schema;

const corrected = (receiptId: SQL | typeof receipts.id) =>
  sql`EXISTS (SELECT 1 FROM ${receiptEdits} WHERE ${receiptEdits.receiptId} = ${receiptId} AND ${receiptEdits.kind} = 'correction')`;

const SORT_COLUMNS = {
  uploadedAt: uploads.createdAt,
  date: receipts.date,
  total: receipts.total,
  merchantName: receipts.merchantName,
} as const;

interface LibraryRow {
  receipt: Omit<ReceiptRow, 'rawText'> & { rawText: string };
  upload: UploadRow;
  originalFilename: string | null;
  edited: boolean;
}

function toLibraryReceipt(row: LibraryRow): LibraryReceipt {
  const { receipt, upload } = row;
  return {
    ...toReceiptView(receipt),
    uploadId: upload.id,
    filename: upload.filename,
    uploadStatus: upload.status,
    uploadError: upload.error ?? undefined,
    uploadedAt: upload.createdAt.toISOString(),
    updatedAt: receipt.updatedAt.toISOString(),
    edited: row.edited,
    originalAvailable: upload.originalDeletedAt === null,
    duplicateOf: toDuplicateOf(upload, row.originalFilename),
  };
}

/** The receipts library: search, read, correct, delete and re-extract the caller's receipts. */
export class ReceiptLibraryService {
  constructor(
    private readonly db: Database,
    private readonly uploads: UploadService,
  ) {}

  private select() {
    return this.db
      .select({
        receipt: receiptPreviewColumns,
        upload: uploads,
        originalFilename: duplicateOriginal.filename,
        edited: corrected(receipts.id).mapWith(Boolean),
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .leftJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf));
  }

  async list(owner: Owner, query: ReceiptListQuery): Promise<ReceiptList> {
    const where = and(
      receiptScope(owner, query),
      query.valid === undefined ? undefined : eq(receipts.valid, query.valid),
      query.duplicate === undefined ? undefined : query.duplicate ? isNotNull(uploads.duplicateOf) : isNull(uploads.duplicateOf),
    );
    const direction = query.order === 'asc' ? asc : desc;
    const sortColumn = SORT_COLUMNS[query.sort];
    const [rows, [counted]] = await Promise.all([
      this.select()
        .where(where)
        // Receipts without the sorted field go last either way; upload order breaks ties.
        .orderBy(sql`${sortColumn} IS NULL`, direction(sortColumn), desc(uploads.createdAt), desc(uploads.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize),
      this.db.select({ n: count() }).from(receipts).innerJoin(uploads, eq(uploads.id, receipts.uploadId)).where(where),
    ]);
    return { items: rows.map(toLibraryReceipt), total: counted!.n, page: query.page, pageSize: query.pageSize };
  }

  /** The caller's receipt and its upload; another owner's is "not found", never "forbidden". */
  private async find(owner: Owner, id: string): Promise<LibraryRow> {
    if (!isUuid(id)) throw notFound('Receipt not found');
    const [row] = await this.select().where(and(eq(receipts.id, id), ownedBy(owner)));
    if (!row) throw notFound('Receipt not found');
    return row;
  }

  async get(owner: Owner, id: string): Promise<ReceiptDetail> {
    const row = await this.find(owner, id);
    const [[full], edits] = await Promise.all([
      this.db
        .select({ text: receipts.rawText, lines: receipts.lines, fieldLines: receipts.fieldLines, readBy: receipts.readBy })
        .from(receipts)
        .where(eq(receipts.id, id)),
      this.db.select().from(receiptEdits).where(eq(receiptEdits.receiptId, id)).orderBy(asc(receiptEdits.createdAt)),
    ]);
    return {
      ...toLibraryReceipt(row),
      fullText: full?.text ?? '',
      lines: full?.lines ?? [],
      fieldLines: full?.fieldLines ?? {},
      readBy: full?.readBy ?? null,
      edits: edits.map((e) => ({ id: e.id, kind: e.kind, changes: e.changes, at: e.createdAt.toISOString() })),
    };
  }

  /**
   * Corrects fields or items: the receipt is validated again (its issues and export validity
   * follow the corrected values; its quality, an extraction measure, stays) and the change is
   * recorded. Duplicate flags follow the corrected merchant, date and total.
   */
  async correct(owner: Owner, id: string, patch: ReceiptPatch): Promise<ReceiptDetail> {
    const { upload } = await this.find(owner, id);
    const changed = await this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(receipts).where(eq(receipts.id, id)).for('update');
      const [state] = await tx.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, upload.id));
      if (!current || !state) throw notFound('Receipt not found');
      if (state.status === 'queued' || state.status === 'processing') {
        throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted again; correct it once that is done.');
      }
      const before = toReceiptView(current);
      const after = applyPatch(before, patch);
      const changes = receiptChanges(before, after);
      if (Object.keys(changes).length === 0) return false;
      const issues = validateReceipt(after, new Date());
      await tx
        .update(receipts)
        .set({
          ...receiptColumns(after),
          issues,
          valid: isExportValid(after, issues),
          updatedAt: new Date(),
        })
        .where(eq(receipts.id, id));
      await tx.insert(receiptEdits).values({ receiptId: id, kind: 'correction', changes });
      return true;
    });
    if (changed) await refreshSameReceiptFlags(this.db, upload.id);
    return this.get(owner, id);
  }

  /** Deletes the receipt with its upload and original file. */
  async remove(owner: Owner, id: string): Promise<void> {
    const { upload } = await this.find(owner, id);
    await this.uploads.remove(owner, upload.id);
  }

  async reextract(owner: Owner, id: string, engine?: EngineName) {
    const { upload, receipt } = await this.find(owner, id);
    const queued = await this.uploads.reextract(owner, upload.id, engine);
    return { id: queued.id, receiptId: receipt.id, status: 'queued' as const, lane: queued.lane };
  }
}
