import { APPROVAL_MOVES, type ApprovalDecision, type ApprovalStatus, type NotificationDetail, type ReportStatus, type UploadStatus } from '@receipts/common';
import { TransactionRollbackError, and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from './audit.repository.js';
import type { Database, Executor } from './db/database.js';
import { expenseReports, receipts, uploads, users, workspaces, type ExpenseReportRow, type UploadRow } from './db/schema.js';
import { notify } from './notification.repository.js';

/** Who acts, in which workspace. */
export interface Actor {
  userId: string;
  workspaceId: string;
}

/** A receipt the approval step is about, as a decision on it needs to know it. */
export interface ApprovalTarget {
  receiptId: string;
  uploadId: string;
  /** Who uploaded it; null once that account is gone. */
  uploaderId: string | null;
  status: ApprovalStatus;
  uploadStatus: UploadStatus;
  reportId: string | null;
  merchantName: string | null;
  date: string | null;
  total: number | null;
  currency: string;
  filename: string;
}

/** Why a move changed nothing: no such receipt or report (for this caller), or not in a state it starts from. */
export type MoveRefusal = 'not-found' | 'wrong-state' | 'busy';
export type MoveOutcome<T> = { moved: T } | { refused: MoveRefusal };

/** A report with what its lists show: names, how many receipts, each currency's total. */
export interface ReportRow {
  report: ExpenseReportRow;
  submitter: string | null;
  decidedBy: string | null;
  receipts: number;
  totals: Array<{ currency: string; total: number }>;
}

/** The decision a move writes, with what the person told about it reads. */
export interface DecisionInput {
  decision: ApprovalDecision;
  comment: string | null;
  /** What the uploader (or submitter) is told; the kind follows from the decision. */
  notice: NotificationDetail;
}

const STATUS_OF: Record<ApprovalDecision, Extract<ApprovalStatus, 'approved' | 'rejected'>> = { approve: 'approved', reject: 'rejected' };

/** The upload of a receipt, as a subquery: moves are addressed by receipt id, as the library is. */
const uploadOf = (receiptId: string) => sql`(SELECT ${receipts.uploadId} FROM ${receipts} WHERE ${receipts.id} = ${receiptId})`;

const submitter = alias(users, 'submitter');
const reportDecider = alias(users, 'report_decider');

/**
 * The submit → approve step: the one place that changes a receipt's approval status, each move
 * one UPDATE guarded by the statuses it may start from (APPROVAL_MOVES), so of two racing moves
 * (two approvers deciding, a resubmission and a rejection) exactly one wins. Each move records its
 * audit event, and a decision its notification, in the same transaction. Reports are the
 * member's batches; their status follows their receipts'.
 */
export class ApprovalRepository {
  constructor(private readonly db: Database) {}

  /** The workspace's receipt as a move on it needs to know it; null when there is none. */
  async target(workspaceId: string, receiptId: string): Promise<ApprovalTarget | null> {
    const [row] = await this.db
      .select({
        receiptId: receipts.id,
        uploadId: uploads.id,
        uploaderId: uploads.userId,
        status: uploads.approvalStatus,
        uploadStatus: uploads.status,
        reportId: uploads.reportId,
        merchantName: receipts.merchantName,
        date: receipts.date,
        total: receipts.total,
        currency: receipts.currency,
        filename: uploads.filename,
      })
      .from(receipts)
      .innerJoin(uploads, eq(uploads.id, receipts.uploadId))
      .where(and(eq(receipts.id, receiptId), eq(uploads.workspaceId, workspaceId)));
    return row ?? null;
  }

  /** The names a notice is made of: the workspace's and the acting person's. */
  async names(workspaceId: string, userId: string): Promise<{ workspace: string; person: string | null }> {
    const [[workspace], [person]] = await Promise.all([
      this.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)),
      this.db.select({ name: users.username }).from(users).where(eq(users.id, userId)),
    ]);
    return { workspace: workspace?.name ?? '', person: person?.name ?? null };
  }

  /**
   * Why a move found nothing to change: the receipt is gone (or not the caller's), or in another
   * state; for a submission (`reading`), possibly still being read again.
   */
  private async refusal(tx: Executor, where: SQL, reading: boolean): Promise<MoveRefusal> {
    const [found] = await tx.select({ status: uploads.status }).from(uploads).where(where);
    if (!found) return 'not-found';
    return reading && found.status !== 'completed' ? 'busy' : 'wrong-state';
  }

  /**
   * A member submits their draft or rejected receipt (finished reading: not while it is read
   * again). A receipt rejected in a report goes back into that report.
   */
  async submit(actor: Actor, receiptId: string): Promise<MoveOutcome<UploadRow>> {
    const mine = and(eq(uploads.id, uploadOf(receiptId)), eq(uploads.workspaceId, actor.workspaceId), eq(uploads.userId, actor.userId))!;
    return this.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(uploads)
        .set({ approvalStatus: 'submitted', approvalSubmittedAt: new Date(), updatedAt: new Date() })
        .where(and(mine, inArray(uploads.approvalStatus, [...APPROVAL_MOVES.submit]), eq(uploads.status, 'completed')))
        .returning();
      if (!moved) return { refused: await this.refusal(tx, mine, true) };
      if (moved.reportId) await settleReport(tx, moved.reportId);
      await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.userId, action: 'receipt.submitted', subject: moved.id, detail: { filename: moved.filename, reportId: moved.reportId } });
      return { moved };
    });
  }

  /**
   * A member makes a report and submits its receipts in one move: the listed ones (all of them
   * the member's, each a draft or rejected, or nothing is written), or, without a list, every
   * draft whose day (the receipt's, else its upload's) is in the period. `nothing` when the
   * period holds no draft.
   */
  async submitReport(
    actor: Actor,
    report: { name: string; from: string; to: string },
    receiptIds?: readonly string[],
  ): Promise<MoveOutcome<ExpenseReportRow> | { refused: 'nothing' }> {
    const mine = and(eq(uploads.workspaceId, actor.workspaceId), eq(uploads.userId, actor.userId));
    const day = sql`CASE WHEN ${receipts.date} ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN ${receipts.date} ELSE to_char(${uploads.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD') END`;
    const which = receiptIds
      ? inArray(receipts.id, [...receiptIds])
      : and(eq(uploads.approvalStatus, 'draft'), eq(uploads.status, 'completed'), sql`${day} BETWEEN ${report.from} AND ${report.to}`);
    // Why a listed receipt could not be submitted, once the guarded move found it moved: the whole report is refused.
    let refused: MoveRefusal = 'wrong-state';
    return this.db
      .transaction(async (tx): Promise<MoveOutcome<ExpenseReportRow> | { refused: 'nothing' }> => {
        const picked = await tx
          .select({ id: uploads.id, status: uploads.status, reportId: uploads.reportId })
          .from(uploads)
          .innerJoin(receipts, eq(receipts.uploadId, uploads.id))
          .where(and(mine, which))
          .for('update', { of: uploads });
        if (picked.length === 0) return { refused: receiptIds ? 'not-found' : 'nothing' };
        if (receiptIds && picked.length < new Set(receiptIds).size) return { refused: 'not-found' };
        const [made] = await tx
          .insert(expenseReports)
          .values({ workspaceId: actor.workspaceId, submitterId: actor.userId, name: report.name, periodStart: report.from, periodEnd: report.to })
          .returning();
        const moved = await tx
          .update(uploads)
          .set({ approvalStatus: 'submitted', approvalSubmittedAt: new Date(), reportId: made!.id, updatedAt: new Date() })
          .where(and(inArray(uploads.id, picked.map((p) => p.id)), inArray(uploads.approvalStatus, [...APPROVAL_MOVES.submit]), eq(uploads.status, 'completed')))
          .returning({ id: uploads.id });
        // All or nothing: one receipt submitted or decided already, or being read again, refuses the whole report.
        if (moved.length < picked.length) {
          if (picked.some((p) => p.status !== 'completed')) refused = 'busy';
          return tx.rollback();
        }
        // A rejected receipt that was in an earlier report leaves it.
        for (const earlier of new Set(picked.map((p) => p.reportId).filter((id): id is string => id !== null))) await settleReport(tx, earlier);
        await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.userId, action: 'report.submitted', subject: made!.id, detail: { name: report.name, receipts: moved.length } });
        return { moved: made! };
      })
      .catch((err: unknown) => {
        if (err instanceof TransactionRollbackError) return { refused };
        throw err;
      });
  }

  /** An approver approves or rejects a submitted receipt; its uploader is told. */
  async decide(actor: Actor, receiptId: string, input: DecisionInput): Promise<MoveOutcome<UploadRow>> {
    const where = and(eq(uploads.id, uploadOf(receiptId)), eq(uploads.workspaceId, actor.workspaceId))!;
    return this.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(uploads)
        .set({ ...decisionColumns(actor, input), updatedAt: new Date() })
        .where(and(where, inArray(uploads.approvalStatus, [...APPROVAL_MOVES[input.decision]])))
        .returning();
      if (!moved) return { refused: await this.refusal(tx, where, false) };
      if (moved.reportId) await settleReport(tx, moved.reportId);
      const status = STATUS_OF[input.decision];
      const detail = { filename: moved.filename, reportId: moved.reportId, comment: input.comment };
      await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.userId, action: `receipt.${status}`, subject: moved.id, detail });
      if (moved.userId) await notify(tx, { userId: moved.userId, workspaceId: actor.workspaceId, kind: `receipt.${status}`, subject: receiptId, detail: input.notice });
      return { moved };
    });
  }

  /**
   * An approver approves or rejects a submitted report as a whole: every receipt of it still
   * waiting gets the decision (those decided one by one keep theirs); its submitter is told.
   */
  async decideReport(actor: Actor, reportId: string, input: DecisionInput): Promise<MoveOutcome<ExpenseReportRow>> {
    const where = and(eq(expenseReports.id, reportId), eq(expenseReports.workspaceId, actor.workspaceId))!;
    const status = STATUS_OF[input.decision];
    return this.db.transaction(async (tx) => {
      const [decided] = await tx
        .update(expenseReports)
        .set({ status, comment: input.comment, decidedBy: actor.userId, decidedAt: new Date() })
        .where(and(where, eq(expenseReports.status, 'submitted')))
        .returning();
      if (!decided) {
        const [found] = await tx.select({ id: expenseReports.id }).from(expenseReports).where(where);
        return { refused: found ? 'wrong-state' : 'not-found' };
      }
      const moved = await tx
        .update(uploads)
        .set({ ...decisionColumns(actor, input), updatedAt: new Date() })
        .where(and(eq(uploads.reportId, reportId), inArray(uploads.approvalStatus, [...APPROVAL_MOVES[input.decision]])))
        .returning({ id: uploads.id });
      await settleReport(tx, reportId);
      const detail = { name: decided.name, receipts: moved.length, comment: input.comment };
      await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.userId, action: `report.${status}`, subject: reportId, detail });
      if (decided.submitterId) await notify(tx, { userId: decided.submitterId, workspaceId: actor.workspaceId, kind: `report.${status}`, subject: reportId, detail: input.notice });
      const [settled] = await tx.select().from(expenseReports).where(eq(expenseReports.id, reportId));
      return { moved: settled! };
    });
  }

  // Reads of reports

  private reportRows() {
    const receiptCount = sql<number>`(SELECT count(*) FROM ${uploads} WHERE ${uploads.reportId} = ${expenseReports.id})`.mapWith(Number);
    // Written out: inside a subquery the ORM names columns without their table.
    const totals = sql<Array<{ currency: string; total: number }>>`(
      SELECT coalesce(json_agg(json_build_object('currency', t.currency, 'total', t.total) ORDER BY t.currency), '[]'::json)
      FROM (SELECT r.currency, sum(r.total)::float8 AS total FROM uploads u JOIN receipts r ON r.upload_id = u.id
            WHERE u.report_id = ${expenseReports.id} AND r.total IS NOT NULL GROUP BY r.currency) t)`;
    return this.db
      .select({ report: expenseReports, submitter: submitter.username, decidedBy: reportDecider.username, receipts: receiptCount, totals })
      .from(expenseReports)
      .leftJoin(submitter, eq(submitter.id, expenseReports.submitterId))
      .leftJoin(reportDecider, eq(reportDecider.id, expenseReports.decidedBy));
  }

  /** The workspace's report; null when there is none. */
  async report(workspaceId: string, reportId: string): Promise<ReportRow | null> {
    const [row] = await this.reportRows().where(and(eq(expenseReports.id, reportId), eq(expenseReports.workspaceId, workspaceId)));
    return row ?? null;
  }

  /** The member's reports in the workspace, newest first. */
  reportsOf(actor: Actor, limit: number): Promise<ReportRow[]> {
    return this.reportRows()
      .where(and(eq(expenseReports.workspaceId, actor.workspaceId), eq(expenseReports.submitterId, actor.userId)))
      .orderBy(desc(expenseReports.createdAt), desc(expenseReports.id))
      .limit(limit);
  }

  /** Others' reports waiting for a decision in the workspace, oldest submission first. */
  awaitingReports(actor: Actor, limit: number): Promise<ReportRow[]> {
    return this.reportRows()
      .where(
        and(
          eq(expenseReports.workspaceId, actor.workspaceId),
          eq(expenseReports.status, 'submitted'),
          sql`${expenseReports.submitterId} IS DISTINCT FROM ${actor.userId}`,
        ),
      )
      .orderBy(asc(expenseReports.submittedAt), asc(expenseReports.id))
      .limit(limit);
  }
}

/** The columns a decision writes on a receipt's upload. */
function decisionColumns(actor: Actor, input: DecisionInput) {
  return { approvalStatus: STATUS_OF[input.decision], approvalComment: input.comment, approvalDecidedBy: actor.userId, approvalDecidedAt: new Date() };
}

/**
 * Brings a report's status in line with its receipts' (REPORT_STATUSES): submitted while any
 * waits, else approved or rejected when all were decided alike, else partly approved. Back to
 * submitted, it was submitted again now; decided just now, it was decided now. A report whose
 * receipts are all gone keeps its status.
 */
async function settleReport(tx: Executor, reportId: string): Promise<void> {
  const status = sql<ReportStatus>`(SELECT CASE
      WHEN count(*) = 0 THEN NULL
      WHEN bool_or(u.approval_status = 'submitted') THEN 'submitted'
      WHEN bool_and(u.approval_status = 'approved') THEN 'approved'
      WHEN bool_and(u.approval_status = 'rejected') THEN 'rejected'
      ELSE 'partly-approved' END
    FROM uploads u WHERE u.report_id = ${reportId})`;
  await tx.execute(sql`
    UPDATE ${expenseReports} SET
      submitted_at = CASE WHEN s.status = 'submitted' AND ${expenseReports.status} <> 'submitted' THEN now() ELSE ${expenseReports.submittedAt} END,
      decided_at = CASE WHEN s.status = 'submitted' THEN NULL WHEN ${expenseReports.status} = 'submitted' THEN now() ELSE ${expenseReports.decidedAt} END,
      status = s.status
    FROM (SELECT ${status} AS status) s
    WHERE ${expenseReports.id} = ${reportId} AND s.status IS NOT NULL`);
}
