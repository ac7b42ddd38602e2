import {
  actingWorkspace,
  APPROVAL_MESSAGES,
  applyPatch,
  doubtsAfterEdit,
  flagKind,
  flagOfMessage,
  isExportValid,
  keptAcceptances,
  learnedRules,
  LOCKED_APPROVALS,
  openFlags,
  receiptChanges,
  reviewFlags,
  receiptIssues,
  renderIssue,
  sameFlag,
  type AuditAction,
  type AuditDetail,
  type EditableField,
  type EngineName,
  type FlagKindAccepted,
  type IssueAcceptance,
  type LibraryReceipt,
  type ReceiptDetail,
  type ReceiptList,
  type ReceiptListQuery,
  type MerchantRule,
  type ReceiptChanges,
  type ReceiptPatch,
  type ReextractAccepted,
  workspaceAllows,
} from '@receipts/common';
import {
  actedBy,
  receiptColumns,
  StoredFileMissingError,
  toApprovalView,
  toDuplicateOf,
  toReceiptView,
  type AuditEntry,
  type FileStore,
  type LibraryRow,
  type Logger,
  type MerchantRuleRepository,
  type ReceiptRepository,
  type ReceiptRow,
  type UploadDuplicateRepository,
  type WebhookEmitter,
} from '@receipts/infra';
import type { CategoryService } from '../categories/category.service.js';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';
import type { UploadService } from '../uploads/upload.service.js';

/** A receipt as the library lists it (and the approval queue, beside who uploaded it). */
export function toLibraryReceipt(row: LibraryRow): LibraryReceipt {
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
    approval: toApprovalView(upload, row.decidedBy),
  };
}

/**
 * A member may not change what waits for, or has, an approver's decision (what was approved is
 * what is exported); an approver reviewing it may.
 */
function refuseIfLocked(owner: Owner, { upload }: LibraryRow): void {
  const workspace = actingWorkspace(owner);
  if (!workspace || workspaceAllows(workspace.role, 'receipts:approve', workspace)) return;
  if (LOCKED_APPROVALS.includes(upload.approvalStatus)) throw new HttpError(409, 'CONFLICT', APPROVAL_MESSAGES.locked);
}

/** An act on a receipt for its workspace's trail, its subject the upload's id; none for an anonymous visitor's receipt. */
function actOn<A extends AuditAction>(owner: Owner, uploadId: string, action: A, detail: AuditDetail<A>): AuditEntry<A> | null {
  const workspace = actingWorkspace(owner);
  return workspace ? actedBy({ workspaceId: workspace.id, actorId: owner.userId }, action, detail, uploadId) : null;
}

/** Originals a browser shows as they are: the picture of a receipt read before page pictures were kept. */
const SHOWN_AS_IS = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/** A page's picture for the review screen. */
export interface PagePicture {
  bytes: Buffer;
  contentType: string;
}

/** Where the corrected fields were read: only lines the receipt has. */
function checkedSources(sources: NonNullable<ReceiptPatch['fieldLines']>, lineCount: number): ReceiptRow['fieldLines'] {
  const indexes = [...Object.values(sources)].flat().filter((i): i is number => typeof i === 'number');
  if (indexes.some((i) => i >= lineCount)) throw new HttpError(400, 'VALIDATION_FAILED', 'A field points at a line the receipt does not have.');
  return sources as ReceiptRow['fieldLines'];
}

/** The receipts library: search, read, correct, accept flags, delete and re-extract the caller's receipts, and show their pages. */
export class ReceiptLibraryService {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly duplicates: UploadDuplicateRepository,
    private readonly uploads: UploadService,
    private readonly files: FileStore,
    private readonly rules: MerchantRuleRepository,
    private readonly categories: Pick<CategoryService, 'resolve'>,
    private readonly webhooks: WebhookEmitter,
    private readonly log: Logger,
  ) {}

  async list(owner: Owner, query: ReceiptListQuery): Promise<ReceiptList> {
    const [{ rows, total }, currencies] = await Promise.all([this.receipts.list(owner, query), this.receipts.currencies(owner)]);
    return { items: rows.map(toLibraryReceipt), total, page: query.page, pageSize: query.pageSize, currencies };
  }

  /** The caller's receipt and its upload; another owner's is "not found", never "forbidden". */
  private async find(owner: Owner, id: string): Promise<LibraryRow> {
    const row = await this.receipts.find(owner, id);
    if (!row) throw notFound('Receipt not found');
    return row;
  }

  async get(owner: Owner, id: string): Promise<ReceiptDetail> {
    const row = await this.find(owner, id);
    const [details, pages] = await Promise.all([this.receipts.details(id), this.pageCount(row)]);
    return {
      ...toLibraryReceipt(row),
      fullText: details.text,
      lines: details.lines,
      fieldLines: details.fieldLines,
      readBy: details.readBy,
      pageTurns: details.pageTurns,
      pages,
      edits: details.edits.map((e) => ({ id: e.id, kind: e.kind, changes: e.changes, at: e.createdAt.toISOString() })),
    };
  }

  /** Page pictures the worker kept, or the original itself when a browser shows it and none were kept. */
  private async pageCount({ upload }: LibraryRow): Promise<number> {
    if (upload.originalDeletedAt) return 0;
    const kept = await this.files.pageCount(upload.id);
    return kept > 0 ? kept : SHOWN_AS_IS.has(upload.mimeType) ? 1 : 0;
  }

  /** Page `n` of the caller's receipt as a picture; 404 when there is none (never stored, or deleted after 90 days). */
  async page(owner: Owner, id: string, n: number): Promise<PagePicture> {
    const { upload } = await this.find(owner, id);
    const missing = () => notFound(upload.originalDeletedAt ? 'The picture of this receipt was deleted after 90 days.' : 'This receipt has no picture of that page.');
    if (upload.originalDeletedAt) throw missing();
    const picture = await this.files.readPage(upload.id, n);
    if (picture) return { bytes: picture, contentType: 'image/jpeg' };
    if (n !== 0 || !SHOWN_AS_IS.has(upload.mimeType) || (await this.files.pageCount(upload.id)) > 0) throw missing();
    const original = await this.files.read(upload.id).catch((err: unknown) => {
      if (err instanceof StoredFileMissingError) throw missing();
      throw err;
    });
    return { bytes: original, contentType: upload.mimeType };
  }

  /**
   * Accepts a flag (an issue, or low quality) after a person looked at the receipt, recording who
   * and when; the receipt is valid for export once every flag is accepted. Accepting one that is
   * accepted already keeps the first acceptance.
   */
  async acceptIssue(owner: Owner, id: string, issue: string): Promise<ReceiptDetail> {
    const { upload } = await this.find(owner, id);
    let unknown = false;
    const outcome = await this.receipts.correct(id, (current) => {
      // The flag arrives as the message the receipt shows: the receipt's own flag of that message.
      const flag = reviewFlags(current, current.issues).find((f) => renderIssue(f) === issue);
      if (!flag) {
        unknown = true;
        return null;
      }
      if (current.acceptedIssues.some((a) => sameFlag(a.flag, flag))) return null;
      const accepted: IssueAcceptance[] = [...current.acceptedIssues, { flag, userId: owner.userId, at: new Date().toISOString() }];
      return {
        columns: { acceptedIssues: accepted, valid: isExportValid(current, current.issues, accepted) },
        changes: {},
        audit: actOn(owner, upload.id, 'receipt.accepted', { filename: upload.filename, flags: [issue] }),
      };
    });
    if (unknown) throw new HttpError(400, 'VALIDATION_FAILED', 'This receipt is not flagged with that issue any more. Reload it and look again.');
    return this.decided(owner, id, outcome);
  }

  /**
   * Accepts one kind of flag (`flagKind`: "Date out of reasonable range", or a mismatch whatever
   * its amounts) on every receipt that needs review for it, each recorded with who and when, as
   * if accepted one by one; a receipt being read again is left as it is. Answers how many receipts
   * had it accepted.
   */
  async acceptFlagKind(owner: Owner, text: string): Promise<FlagKindAccepted> {
    // The kind arrives as people see kinds: read into a flag here, at the edge; only a kind's own text names one.
    const kind = flagOfMessage(text);
    if (flagKind(kind) !== text) return { receipts: 0 };
    const ofKind = (current: Pick<ReceiptRow, 'issues' | 'quality' | 'acceptedIssues'>) =>
      openFlags(current, current.issues, current.acceptedIssues).filter((flag) => flagKind(flag) === flagKind(kind));
    let accepted = 0;
    for (const candidate of await this.receipts.needingReview(owner)) {
      if (ofKind(candidate).length === 0) continue;
      const outcome = await this.receipts.correct(candidate.id, (current) => {
        const flags = ofKind(current);
        if (flags.length === 0) return null;
        const at = new Date().toISOString();
        const acceptedIssues: IssueAcceptance[] = [...current.acceptedIssues, ...flags.map((flag) => ({ flag, userId: owner.userId, at }))];
        return {
          columns: { acceptedIssues, valid: isExportValid(current, current.issues, acceptedIssues) },
          changes: {},
          audit: actOn(owner, candidate.uploadId, 'receipt.accepted', { filename: candidate.filename, flags: flags.map(renderIssue) }),
        };
      });
      if (outcome === 'changed') accepted += 1;
    }
    return { receipts: accepted };
  }

  /** Takes an acceptance back: the flag keeps the receipt off the Receipts sheet again. */
  async reopenIssue(owner: Owner, id: string, issue: string): Promise<ReceiptDetail> {
    const { upload } = await this.find(owner, id);
    const outcome = await this.receipts.correct(id, (current) => {
      const accepted = current.acceptedIssues.filter((a) => renderIssue(a.flag) !== issue);
      if (accepted.length === current.acceptedIssues.length) return null;
      return {
        columns: { acceptedIssues: accepted, valid: isExportValid(current, current.issues, accepted) },
        changes: {},
        audit: actOn(owner, upload.id, 'receipt.reopened', { filename: upload.filename, flag: issue }),
      };
    });
    return this.decided(owner, id, outcome);
  }

  private decided(owner: Owner, id: string, outcome: Awaited<ReturnType<ReceiptRepository['correct']>>): Promise<ReceiptDetail> {
    if (outcome === 'not-found') throw notFound('Receipt not found');
    if (outcome === 'busy') throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted again; review it once that is done.');
    return this.get(owner, id);
  }

  /**
   * Corrects fields or items: the receipt is validated again (its issues and export validity
   * follow the corrected values; its quality, an extraction measure, stays) and the change is
   * recorded. Duplicate flags follow the corrected merchant, date and total. A signed-in owner's
   * new merchant name or category becomes a rule for their next receipts.
   */
  async correct(owner: Owner, id: string, patch: ReceiptPatch): Promise<ReceiptDetail> {
    const row = await this.find(owner, id);
    refuseIfLocked(owner, row);
    const { upload } = row;
    // A category is one of the owner's, spelled as they named it.
    if (patch.category !== undefined) patch = { ...patch, category: await this.categories.resolve(actingWorkspace(owner)?.id ?? null, patch.category) };
    let learned: Array<Pick<MerchantRule, 'kind' | 'match' | 'value'>> = [];
    let changed: ReceiptChanges = {};
    const outcome = await this.receipts.correct(id, (current) => {
      const before = toReceiptView(current);
      const after = applyPatch(before, patch);
      const changes = receiptChanges(before, after);
      const fieldLines = patch.fieldLines ? checkedSources(patch.fieldLines, current.lines.length) : undefined;
      const movedSources = fieldLines !== undefined && JSON.stringify(fieldLines) !== JSON.stringify(current.fieldLines);
      if (Object.keys(changes).length === 0 && !movedSources) return null;
      learned = learnedRules(current, after, changes);
      changed = changes;
      // The extraction's doubts stand until a person changes the field they are about.
      const issues = receiptIssues(after, doubtsAfterEdit(current.issues, new Set(Object.keys(changes)), after), new Date());
      // What a person accepted stays accepted while the receipt still carries that flag.
      const acceptedIssues = keptAcceptances(current.acceptedIssues, after, issues);
      const fields = Object.keys(changes) as EditableField[];
      return {
        columns: { ...receiptColumns(after), issues, acceptedIssues, valid: isExportValid(after, issues, acceptedIssues), ...(movedSources ? { fieldLines } : {}) },
        changes,
        // Which fields, not their values: the receipt's history keeps those.
        audit: fields.length > 0 ? actOn(owner, upload.id, 'receipt.corrected', { filename: upload.filename, fields }) : null,
      };
    });
    if (outcome === 'not-found') throw notFound('Receipt not found');
    if (outcome === 'busy') throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted again; correct it once that is done.');
    if (outcome === 'changed') {
      const corrected = await this.find(owner, id);
      // Recorded first (it never throws): the answer below may still fail after the correction is stored.
      await this.webhooks.emit(owner.userId, 'receipt.corrected', {
        uploadId: upload.id,
        receiptId: id,
        filename: upload.filename,
        receipt: toReceiptView(corrected.receipt),
        changes: changed,
      });
      await this.duplicates.refreshDuplicateFlags(upload.id);
      // The correction is saved whatever happens here: a rule not learned is logged, not the user's error.
      const workspace = actingWorkspace(owner);
      if (workspace && learned.length > 0) {
        await this.rules.learn(workspace.id, learned).catch((err: unknown) => this.log.warn({ err, receiptId: id }, 'rule not learned from a correction'));
      }
    }
    return this.get(owner, id);
  }

  /** Deletes the receipt with its upload and original file. */
  async remove(owner: Owner, id: string): Promise<void> {
    const { upload } = await this.find(owner, id);
    await this.uploads.remove(owner, upload.id);
  }

  async reextract(owner: Owner, id: string, engine?: EngineName): Promise<ReextractAccepted> {
    const row = await this.find(owner, id);
    refuseIfLocked(owner, row);
    const { upload, receipt } = row;
    const queued = await this.uploads.reextract(owner, upload.id, engine);
    return { id: queued.id, receiptId: receipt.id, status: 'queued' as const, lane: queued.lane };
  }
}
