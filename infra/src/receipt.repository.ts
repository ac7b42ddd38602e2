import { CLEARED_APPROVALS, isFinal, merchantKey, SPENDING_TOP_MERCHANTS, type ApprovalStatus, type ReceiptFilter, type ReceiptListQuery, type SpendingQuery, type SpendingRow } from '@receipts/common';
import { and, asc, count, desc, eq, getTableColumns, gte, ilike, inArray, isNotNull, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { recordAudit, type AuditEntry } from './audit.repository.js';
import { receiptEdits, receipts, uploads, users, type ReceiptEditRow, type ReceiptRow, type UploadRow } from './db/schema.js';
import { alias } from 'drizzle-orm/pg-core';
import type { QuotaOwner } from './quota.service.js';
import { duplicateOriginal, ownedBy } from './upload-scope.js';
import type { ReceiptFields } from './upload-view.js';

/** A LIKE pattern that matches `text` literally anywhere. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Which receipts a list or an export covers: built by `ReceiptRepository.scope` only. */
export type ReceiptScope = SQL & { readonly __scope: true };

const { rawText: _fullText, ...previewColumns } = getTableColumns(receipts);
/** The recognized text cut to what a view shows (one character more than the 200-character preview, so the view still adds "..."). */
const receiptPreviewColumns = { ...previewColumns, rawText: sql<string>`left(${receipts.rawText}, 201)` };

const corrected = sql`EXISTS (SELECT 1 FROM ${receiptEdits} WHERE ${receiptEdits.receiptId} = ${receipts.id} AND ${receiptEdits.kind} = 'correction')`;

const SORT_COLUMNS = {
  uploadedAt: uploads.createdAt,
  date: receipts.date,
  total: receipts.total,
  merchantName: receipts.merchantName,
} as const;

/** A receipt the QuickBooks and Xero files can carry: a real-looking day and a total. */
const importable = and(isNotNull(receipts.total), sql`${receipts.date} ~ '^\\d{4}-\\d{2}-\\d{2}$'`)!;

/** A receipt the workspace counts: approved, or one that needs no approval. Only these go into import files. */
const cleared = inArray(uploads.approvalStatus, [...CLEARED_APPROVALS]);
/** What an import file carries: valid and cleared receipts. */
const carriable = and(receipts.valid, cleared)!;

/** Who took an upload's latest approval decision, and who uploaded it. */
const decider = alias(users, 'decider');
const uploader = alias(users, 'uploader');

/** Which receipts of a workspace the approval step shows: others' waiting outside any report (the queue), or reports'. */
export type ApprovalPick = { awaitingFor: string } | { reportIds: readonly string[] };

/** A library receipt with its upload (recognized text cut to the preview). */
export interface LibraryRow {
  receipt: ReceiptRow;
  upload: UploadRow;
  originalFilename: string | null;
  edited: boolean;
  /** The name of who took the latest approval decision. */
  decidedBy: string | null;
  /** The name of who uploaded it; null once that account is gone. */
  uploadedBy: string | null;
}

/** A receipt's view fields, its file name, and where an export page stopped (the upload's creation time as text keeps its microseconds). */
/**
 * Which of a scope's receipts an export page holds: all of them (the workbook), those an import
 * file carrying `valid` or `importable` receipts carries (valid and cleared, and importable), or
 * those it leaves out.
 */
export type ExportPick = { all: true } | { carried: 'valid' | 'importable' } | { leftOutOf: 'valid' | 'importable' };

/** The condition an export page's pick puts on the scope's receipts (none for all of them). */
function picked(pick: ExportPick): SQL | undefined {
  if ('all' in pick) return undefined;
  const carried = (what: 'valid' | 'importable') => (what === 'importable' ? and(carriable, importable)! : carriable);
  return 'leftOutOf' in pick ? not(carried(pick.leftOutOf)) : carried(pick.carried);
}

export type ExportRow = ReceiptFields & { filename: string; at: string; uploadId: string; approvalStatus: ApprovalStatus; approvalComment: string | null };

export interface ExportCounts {
  total: number;
  valid: number;
  /** Valid receipts an import file may carry: approved, or needing no approval. */
  carried: number;
  /** Carried ones with what an accounting import needs (a day and a total). */
  importable: number;
  carriedCurrencies: string[];
  importableCurrencies: string[];
  from: string | null;
  to: string | null;
}

/** A receipt's original file as the export pack names and fetches it. */
export interface OriginalRow {
  receiptId: string;
  uploadId: string;
  filename: string;
  mimeType: string;
  originalDeletedAt: Date | null;
  merchantName: string | null;
  date: string | null;
  total: number | null;
  currency: string;
  at: string;
}

/**
 * A revised receipt: its new columns and what changed, or null when nothing did. Changes of
 * fields are recorded in its history; with none (an acceptance, where fields were read) only the
 * columns are written.
 */
export interface ReceiptRevision {
  columns: Partial<Omit<typeof receipts.$inferInsert, 'id' | 'uploadId' | 'merchantKey'>>;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** The act for the workspace's trail, recorded with the revision (none for an anonymous visitor's receipt). */
  audit?: AuditEntry | null;
}

export type CorrectionOutcome = 'changed' | 'unchanged' | 'not-found' | 'busy';

/** Receipts: the library's queries, corrections and the export's pages. Writing a new receipt is the upload repository's (it completes the upload). */
export class ReceiptRepository {
  constructor(private readonly db: Database) {}

  /**
   * The owner's receipts matching the library filters (and, for an export of a selection, its
   * ids): the one definition the library list and the export share.
   */
  /** A report's receipts in its workspace: what its workbook holds. */
  reportScope(workspaceId: string, reportId: string): ReceiptScope {
    return and(eq(uploads.workspaceId, workspaceId), eq(uploads.reportId, reportId)) as ReceiptScope;
  }

  scope(owner: QuotaOwner, filter: ReceiptFilter, ids?: readonly string[]): ReceiptScope {
    const conditions: Array<SQL | undefined> = [ownedBy(owner)];
    if (filter.q) conditions.push(or(ilike(receipts.merchantName, containing(filter.q)), ilike(receipts.rawText, containing(filter.q))));
    if (filter.from) conditions.push(gte(receipts.date, filter.from));
    if (filter.to) conditions.push(lte(receipts.date, filter.to));
    // Names and tags as their owner typed them, matched whatever the case.
    if (filter.category) conditions.push(sql`lower(${receipts.category}) = lower(${filter.category})`);
    if (filter.tag) conditions.push(sql`EXISTS (SELECT 1 FROM unnest(${receipts.tags}) AS tag WHERE lower(tag) = lower(${filter.tag}))`);
    if (filter.currency) conditions.push(eq(receipts.currency, filter.currency));
    if (ids) conditions.push(inArray(receipts.id, [...ids]));
    return and(...conditions) as ReceiptScope;
  }

  private library() {
    return this.db
      .select({
        receipt: receiptPreviewColumns,
        upload: uploads,
        originalFilename: duplicateOriginal.filename,
        edited: corrected.mapWith(Boolean),
        decidedBy: decider.username,
        uploadedBy: uploader.username,
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .leftJoin(duplicateOriginal, eq(duplicateOriginal.id, uploads.duplicateOf))
      .leftJoin(decider, eq(decider.id, uploads.approvalDecidedBy))
      .leftJoin(uploader, eq(uploader.id, uploads.userId));
  }

  /** A page of the owner's receipts as the library lists them, with how many match in all. */
  async list(owner: QuotaOwner, query: ReceiptListQuery): Promise<{ rows: LibraryRow[]; total: number }> {
    const where = and(
      this.scope(owner, query),
      query.valid === undefined ? undefined : eq(receipts.valid, query.valid),
      query.duplicate === undefined ? undefined : query.duplicate ? isNotNull(uploads.duplicateOf) : isNull(uploads.duplicateOf),
      query.approval === undefined ? undefined : eq(uploads.approvalStatus, query.approval),
    );
    const direction = query.order === 'asc' ? asc : desc;
    const sortColumn = SORT_COLUMNS[query.sort];
    const [rows, [counted]] = await Promise.all([
      this.library()
        .where(where)
        // Receipts without the sorted field go last either way; upload order breaks ties.
        .orderBy(sql`${sortColumn} IS NULL`, direction(sortColumn), desc(uploads.createdAt), desc(uploads.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize),
      this.db.select({ n: count() }).from(receipts).innerJoin(uploads, eq(uploads.id, receipts.uploadId)).where(where),
    ]);
    return { rows, total: counted!.n };
  }

  /**
   * A workspace's receipts in the approval step: those waiting for `awaitingFor`'s decision
   * outside any report (never their own), or those of the reports. Oldest submission first.
   */
  async forApproval(workspaceId: string, pick: ApprovalPick, limit: number): Promise<LibraryRow[]> {
    if ('reportIds' in pick && pick.reportIds.length === 0) return [];
    const which =
      'awaitingFor' in pick
        ? and(eq(uploads.approvalStatus, 'submitted'), isNull(uploads.reportId), sql`${uploads.userId} IS DISTINCT FROM ${pick.awaitingFor}`)
        : inArray(uploads.reportId, [...pick.reportIds]);
    return this.library()
      .where(and(eq(uploads.workspaceId, workspaceId), which))
      .orderBy(asc(uploads.approvalSubmittedAt), asc(uploads.createdAt), asc(uploads.id))
      .limit(limit);
  }

  /** The owner's receipts that need a person (not valid for export), with what flags them, in upload order. */
  async needingReview(owner: QuotaOwner): Promise<Array<Pick<ReceiptRow, 'id' | 'issues' | 'quality' | 'acceptedIssues'> & { uploadId: string; filename: string }>> {
    return this.db
      .select({ id: receipts.id, issues: receipts.issues, quality: receipts.quality, acceptedIssues: receipts.acceptedIssues, uploadId: uploads.id, filename: uploads.filename })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(and(ownedBy(owner), eq(receipts.valid, false)))
      .orderBy(asc(uploads.createdAt), asc(uploads.id));
  }

  /** The currencies of all the owner's receipts, in code order: what the library may be filtered by. */
  async currencies(owner: QuotaOwner): Promise<string[]> {
    const rows = await this.db.selectDistinct({ currency: receipts.currency }).from(receipts).innerJoin(uploads, eq(uploads.id, receipts.uploadId)).where(ownedBy(owner)).orderBy(receipts.currency);
    return rows.map((r) => r.currency);
  }

  /** The owner's receipt with its upload; another owner's is null, as if it did not exist. */
  async find(owner: QuotaOwner, id: string): Promise<LibraryRow | null> {
    const [row] = await this.library().where(and(eq(receipts.id, id), ownedBy(owner)));
    return row ?? null;
  }

  /** What the details screen adds to a library row: the whole text, its lines, and the history of edits. */
  async details(
    id: string,
  ): Promise<{ text: string; lines: ReceiptRow['lines']; fieldLines: ReceiptRow['fieldLines']; readBy: string | null; pageTurns: number[]; edits: ReceiptEditRow[] }> {
    const [[full], edits] = await Promise.all([
      this.db
        .select({ text: receipts.rawText, lines: receipts.lines, fieldLines: receipts.fieldLines, readBy: receipts.readBy, pageTurns: receipts.pageTurns })
        .from(receipts)
        .where(eq(receipts.id, id)),
      this.db.select().from(receiptEdits).where(eq(receiptEdits.receiptId, id)).orderBy(asc(receiptEdits.createdAt)),
    ]);
    return { text: full?.text ?? '', lines: full?.lines ?? [], fieldLines: full?.fieldLines ?? {}, readBy: full?.readBy ?? null, pageTurns: full?.pageTurns ?? [], edits };
  }

  /**
   * Revises a receipt under a row lock (a correction, an accepted flag): `revise` sees the stored
   * receipt and says what changes (null: nothing). Refused ('busy') while its upload is being
   * extracted again.
   */
  async correct(id: string, revise: (current: ReceiptRow) => ReceiptRevision | null): Promise<CorrectionOutcome> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(receipts).where(eq(receipts.id, id)).for('update');
      if (!current) return 'not-found';
      const [state] = await tx.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, current.uploadId));
      if (!state) return 'not-found';
      if (!isFinal(state.status)) return 'busy';
      const revision = revise(current);
      if (!revision) return 'unchanged';
      const { merchantName } = revision.columns;
      // The merchant's key changes with its name (undefined: the name is not revised).
      const key = merchantName === undefined ? {} : { merchantKey: merchantName === null ? null : merchantKey(merchantName) };
      await tx
        .update(receipts)
        .set({ ...revision.columns, ...key, updatedAt: new Date() })
        .where(eq(receipts.id, id));
      if (Object.keys(revision.changes).length > 0) await tx.insert(receiptEdits).values({ receiptId: id, kind: 'correction', changes: revision.changes });
      if (revision.audit) await recordAudit(tx, revision.audit);
      return 'changed';
    });
  }

  /**
   * How many receipts the scope holds: all, valid, valid and cleared (what an import file may
   * carry), and those with what an accounting import needs; the currencies of the carried and
   * of the importable ones, and the days the importable ones run from and to.
   */
  async exportCounts(scope: ReceiptScope): Promise<ExportCounts> {
    const both = and(carriable, importable);
    const [counts] = await this.db
      .select({
        total: count(),
        valid: sql<number>`count(*) FILTER (WHERE ${receipts.valid})`.mapWith(Number),
        carried: sql<number>`count(*) FILTER (WHERE ${carriable})`.mapWith(Number),
        importable: sql<number>`count(*) FILTER (WHERE ${both})`.mapWith(Number),
        carriedCurrencies: sql<string[]>`coalesce(array_agg(DISTINCT ${receipts.currency}) FILTER (WHERE ${carriable}), '{}')`,
        importableCurrencies: sql<string[]>`coalesce(array_agg(DISTINCT ${receipts.currency}) FILTER (WHERE ${both}), '{}')`,
        from: sql<string | null>`min(${receipts.date}) FILTER (WHERE ${both})`,
        to: sql<string | null>`max(${receipts.date}) FILTER (WHERE ${both})`,
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(scope);
    return counts!;
  }

  /**
   * Spending of the owner's receipts that match the library's filters, in ONE statement: each
   * currency's total and its totals by month, by category and by merchant (the
   * `SPENDING_TOP_MERCHANTS` largest, the rest as one "other" group), and with `byMember` by the
   * member who uploaded them (`member`: only that member's receipts), as grouping sets of the
   * same rows; never a sum across currencies. A receipt counts when it has a total and is not
   * flagged as a possible duplicate (it would count the same purchase twice); the rest are
   * counted as `notCounted`. Its month is the receipt's date, or the upload's (UTC) when the
   * receipt has none. Merchants are grouped by their stored key (as duplicates are
   * matched), and named as most of their receipts spell them; members by their account, named by
   * its address (none once the account is gone).
   */
  async spending(owner: QuotaOwner, query: SpendingQuery, options: { byMember?: boolean; member?: string } = {}): Promise<SpendingRow[]> {
    const where = and(
      this.scope(owner, query),
      query.valid === undefined ? undefined : eq(receipts.valid, query.valid),
      options.member === undefined ? undefined : eq(uploads.userId, options.member),
    );
    // Without `byMember` no member is read: its grouping set is one row per currency, ignored.
    const member = options.byMember ? sql`${uploads.userId}::text AS member, ${users.email} AS member_email` : sql`NULL::text AS member, NULL::text AS member_email`;
    const memberJoin = options.byMember ? sql`LEFT JOIN ${users} ON ${users.id} = ${uploads.userId}` : sql``;
    const result = await this.db.execute(sql`
      WITH base AS (
        SELECT ${receipts.currency} AS currency,
               CASE WHEN ${receipts.date} ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN left(${receipts.date}, 7)
                    ELSE to_char(${uploads.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM') END AS month,
               ${receipts.category} AS category,
               nullif(btrim(${receipts.merchantName}), '') AS merchant,
               nullif(${receipts.merchantKey}, '') AS merchant_key,
               ${member},
               ${receipts.total} AS total,
               (${receipts.total} IS NOT NULL AND ${uploads.duplicateOf} IS NULL) AS counted
        FROM ${receipts} INNER JOIN ${uploads} ON ${uploads.id} = ${receipts.uploadId}
             ${memberJoin}
        WHERE ${where}
      ),
      ranked AS (
        SELECT currency, merchant_key,
               row_number() OVER (PARTITION BY currency ORDER BY sum(total) DESC, count(*) DESC, merchant_key) AS rank
        FROM base WHERE counted AND merchant_key IS NOT NULL
        GROUP BY currency, merchant_key
      ),
      bucketed AS (
        SELECT base.*, CASE WHEN ranked.rank <= ${SPENDING_TOP_MERCHANTS} THEN ranked.merchant_key END AS bucket
        FROM base LEFT JOIN ranked ON ranked.currency = base.currency AND ranked.merchant_key = base.merchant_key
      )
      SELECT CASE GROUPING(currency, month, category, bucket, member)
               WHEN 15 THEN 'currency' WHEN 7 THEN 'month' WHEN 11 THEN 'category' WHEN 13 THEN 'merchant' WHEN 14 THEN 'member' ELSE 'all' END AS "set",
             currency,
             coalesce(month, category, bucket, member) AS "key",
             CASE WHEN GROUPING(bucket) = 0 THEN mode() WITHIN GROUP (ORDER BY merchant)
                  WHEN GROUPING(member) = 0 THEN min(member_email) END AS "label",
             CASE WHEN GROUPING(currency) = 0 THEN (sum(total) FILTER (WHERE counted))::float8 END AS "total",
             (count(*) FILTER (WHERE counted))::int AS "receipts",
             (count(*) FILTER (WHERE NOT counted))::int AS "notCounted"
      FROM bucketed
      GROUP BY GROUPING SETS ((currency), (currency, month), (currency, category), (currency, bucket), (currency, member), ())
      HAVING GROUPING(currency) = 1 OR count(*) FILTER (WHERE counted) > 0`);
    return (result as unknown as { rows: SpendingRow[] }).rows;
  }

  /**
   * One page of the scope's receipts (valid or not) in upload order, after `after`: what the
   * export pack needs to name and fetch each original.
   */
  async originalsPage(scope: ReceiptScope, after: { at: string; id: string } | null, limit: number): Promise<OriginalRow[]> {
    return this.db
      .select({
        receiptId: receipts.id,
        uploadId: uploads.id,
        filename: uploads.filename,
        mimeType: uploads.mimeType,
        originalDeletedAt: uploads.originalDeletedAt,
        merchantName: receipts.merchantName,
        date: receipts.date,
        total: receipts.total,
        currency: receipts.currency,
        at: sql<string>`${uploads.createdAt}::text`,
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(and(scope, after ? sql`(${uploads.createdAt}, ${uploads.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined))
      .orderBy(asc(uploads.createdAt), asc(uploads.id))
      .limit(limit);
  }

  /**
   * One page of the scope's valid (or invalid, or all) receipts in upload order, after `after`, as
   * plain rows already in the shape of a receipt view's fields: a raw query skips the ORM's
   * per-field mapping, a fifth of an export's database time.
   */
  async exportPage(
    scope: ReceiptScope,
    pick: ExportPick,
    after: { at: string; id: string } | null,
    limit: number,
  ): Promise<ExportRow[]> {
    const money = (column: typeof receipts.total) => sql`${column}::float8`;
    const where = and(
      scope,
      picked(pick),
      after ? sql`(${uploads.createdAt}, ${uploads.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
    );
    const result = await this.db.execute(sql`
      SELECT ${receipts.id} AS "id", ${receipts.merchantName} AS "merchantName", ${receipts.date} AS "date",
             ${receipts.time} AS "time", ${receipts.currency} AS "currency",
             ${money(receipts.subtotal)} AS "subtotal", ${money(receipts.tax)} AS "tax", ${money(receipts.tip)} AS "tip",
             ${money(receipts.discount)} AS "discount", ${money(receipts.total)} AS "total",
             ${receipts.paymentMethod} AS "paymentMethod", ${receipts.category} AS "category",
             ${receipts.receiptNumber} AS "receiptNumber", ${receipts.tin} AS "tin", ${receipts.quality} AS "quality",
             ${receipts.items} AS "items", ${receipts.taxRates} AS "taxRates", to_jsonb(${receipts.tags}) AS "tags", left(${receipts.rawText}, 201) AS "rawText", ${receipts.issues} AS "issues",
             ${receipts.acceptedIssues} AS "acceptedIssues", ${receipts.valid} AS "valid", ${uploads.filename} AS "filename",
             ${uploads.createdAt}::text AS "at", ${uploads.id} AS "uploadId",
             ${uploads.approvalStatus} AS "approvalStatus", ${uploads.approvalComment} AS "approvalComment"
      FROM ${receipts} INNER JOIN ${uploads} ON ${uploads.id} = ${receipts.uploadId}
      WHERE ${where}
      ORDER BY ${uploads.createdAt}, ${uploads.id}
      LIMIT ${limit}`);
    return (result as unknown as { rows: ExportRow[] }).rows;
  }
}
