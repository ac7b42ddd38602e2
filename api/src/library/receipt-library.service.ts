import {
  applyPatch,
  isExportValid,
  learnedRules,
  receiptChanges,
  validateReceipt,
  type EngineName,
  type LibraryReceipt,
  type ReceiptDetail,
  type ReceiptList,
  type ReceiptListQuery,
  type MerchantRule,
  type ReceiptPatch,
} from '@receipts/common';
import {
  receiptColumns,
  toDuplicateOf,
  toReceiptView,
  type LibraryRow,
  type Logger,
  type MerchantRuleRepository,
  type ReceiptRepository,
  type UploadRepository,
} from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';
import type { UploadService } from '../uploads/upload.service.js';

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
    private readonly receipts: ReceiptRepository,
    private readonly uploadRows: UploadRepository,
    private readonly uploads: UploadService,
    private readonly rules: MerchantRuleRepository,
    private readonly log: Logger,
  ) {}

  async list(owner: Owner, query: ReceiptListQuery): Promise<ReceiptList> {
    const { rows, total } = await this.receipts.list(owner, query);
    return { items: rows.map(toLibraryReceipt), total, page: query.page, pageSize: query.pageSize };
  }

  /** The caller's receipt and its upload; another owner's is "not found", never "forbidden". */
  private async find(owner: Owner, id: string): Promise<LibraryRow> {
    const row = await this.receipts.find(owner, id);
    if (!row) throw notFound('Receipt not found');
    return row;
  }

  async get(owner: Owner, id: string): Promise<ReceiptDetail> {
    const row = await this.find(owner, id);
    const details = await this.receipts.details(id);
    return {
      ...toLibraryReceipt(row),
      fullText: details.text,
      lines: details.lines,
      fieldLines: details.fieldLines,
      readBy: details.readBy,
      edits: details.edits.map((e) => ({ id: e.id, kind: e.kind, changes: e.changes, at: e.createdAt.toISOString() })),
    };
  }

  /**
   * Corrects fields or items: the receipt is validated again (its issues and export validity
   * follow the corrected values; its quality, an extraction measure, stays) and the change is
   * recorded. Duplicate flags follow the corrected merchant, date and total. A signed-in owner's
   * new merchant name or category becomes a rule for their next receipts.
   */
  async correct(owner: Owner, id: string, patch: ReceiptPatch): Promise<ReceiptDetail> {
    const { upload } = await this.find(owner, id);
    let learned: Array<Pick<MerchantRule, 'kind' | 'match' | 'value'>> = [];
    const outcome = await this.receipts.correct(id, (current) => {
      const before = toReceiptView(current);
      const after = applyPatch(before, patch);
      const changes = receiptChanges(before, after);
      if (Object.keys(changes).length === 0) return null;
      learned = learnedRules(current, after, changes);
      const issues = validateReceipt(after, new Date());
      return { columns: { ...receiptColumns(after), issues, valid: isExportValid(after, issues) }, changes };
    });
    if (outcome === 'not-found') throw notFound('Receipt not found');
    if (outcome === 'busy') throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted again; correct it once that is done.');
    if (outcome === 'changed') {
      await this.uploadRows.refreshDuplicateFlags(upload.id);
      // The correction is saved whatever happens here: a rule not learned is logged, not the user's error.
      if (owner.userId && learned.length > 0) {
        await this.rules.learn(owner.userId, learned).catch((err: unknown) => this.log.warn({ err, receiptId: id }, 'rule not learned from a correction'));
      }
    }
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
