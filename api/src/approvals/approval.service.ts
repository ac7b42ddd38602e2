import {
  actingWorkspace,
  APPROVAL_MESSAGES,
  APPROVAL_QUEUE_MAX,
  fileNamePart,
  formatMoney,
  REPORT_RECEIPTS_MAX,
  workspaceAllows,
  type ApprovalDecision,
  type ApprovalQueue,
  type ApprovalReceipt,
  type CreateReportInput,
  type LibraryReceipt,
  type NotificationDetail,
  type NotificationKind,
  type ReportDetail,
  type ReportList,
  type ReportView,
  type WorkspaceScope,
} from '@receipts/common';
import type { Actor, ApprovalRepository, ApprovalTarget, LibraryRow, Logger, Mailer, MoveRefusal, ReceiptRepository, ReportRow, UserRepository } from '@receipts/infra';
import type { AuditService } from '../audit/audit.service.js';
import type { ExportService, PreparedExport } from '../export/export.service.js';
import { HttpError, notFound } from '../http-error.js';
import { toLibraryReceipt } from '../library/receipt-library.service.js';
import { unauthenticated } from '../owner.middleware.js';
import type { Owner } from '../session.js';
import { decisionMail } from './approval.mail.js';
import { writeReportPdf } from './report-pdf.writer.js';

/** Reports the queue shows at once, oldest submission first. */
export const QUEUE_REPORTS_MAX = 20;
/** The member's own reports listed, newest first. */
const OWN_REPORTS_MAX = 100;

const toApprovalReceipt = (row: LibraryRow): ApprovalReceipt => ({ ...toLibraryReceipt(row), submitter: row.uploadedBy });

export function toReportView({ report, submitter, decidedBy, receipts, totals }: ReportRow): ReportView {
  return {
    id: report.id,
    name: report.name,
    from: report.periodStart,
    to: report.periodEnd,
    status: report.status,
    submitter,
    comment: report.comment,
    decidedBy,
    receipts,
    totals,
    createdAt: report.createdAt.toISOString(),
    submittedAt: report.submittedAt.toISOString(),
    decidedAt: report.decidedAt?.toISOString() ?? null,
  };
}

/** A receipt as a notification names it: where from, which day, how much. */
function describe(target: ApprovalTarget): string {
  const facts = [target.date, target.total === null ? null : formatMoney(target.total, target.currency)].filter(Boolean);
  return `from ${target.merchantName ?? target.filename}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/** Refuses a move that changed nothing, in the words of what it was about. */
function refused(reason: MoveRefusal, wrongState: string, notFoundMessage: string): never {
  if (reason === 'not-found') throw notFound(notFoundMessage);
  throw new HttpError(409, 'CONFLICT', reason === 'busy' ? APPROVAL_MESSAGES.busy : wrongState);
}

/**
 * The submit → approve step: a member submits receipts (one, or a report of them), approvers
 * decide, and the member is told in the app and by e-mail. Who may act is the policy's
 * (workspaceAllows): the route checks the role, this the receipt (never one's own).
 */
export class ApprovalService {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly receipts: ReceiptRepository,
    private readonly exports: Pick<ExportService, 'reportWorkbook'>,
    private readonly audit: Pick<AuditService, 'record'>,
    private readonly users: Pick<UserRepository, 'byId'>,
    private readonly mailer: Mailer,
    private readonly log: Logger,
  ) {}

  /** The signed-in caller and the workspace they act in (the routes let no one else in). */
  private actor(owner: Owner): { actor: Actor; workspace: WorkspaceScope } {
    const workspace = actingWorkspace(owner);
    if (!workspace || !owner.userId) throw unauthenticated();
    return { actor: { userId: owner.userId, workspaceId: workspace.id }, workspace };
  }

  /** The receipt as the caller's library shows it now. */
  private async libraryView(owner: Owner, receiptId: string): Promise<LibraryReceipt> {
    const row = await this.receipts.find(owner, receiptId);
    if (!row) throw notFound(APPROVAL_MESSAGES.receiptNotFound);
    return toLibraryReceipt(row);
  }

  /** A member submits their own draft, or their rejected receipt after correcting it. */
  async submit(owner: Owner, receiptId: string): Promise<LibraryReceipt> {
    const outcome = await this.approvals.submit(this.actor(owner).actor, receiptId);
    if ('refused' in outcome) refused(outcome.refused, APPROVAL_MESSAGES.notSubmittable, APPROVAL_MESSAGES.receiptNotFound);
    return this.libraryView(owner, receiptId);
  }

  /** A member makes a report of the listed receipts, or of the period's drafts, and submits it. */
  async submitReport(owner: Owner, input: CreateReportInput): Promise<ReportDetail> {
    const { actor } = this.actor(owner);
    const outcome = await this.approvals.submitReport(actor, { name: input.name, from: input.from, to: input.to }, input.receiptIds);
    if ('refused' in outcome) {
      if (outcome.refused === 'nothing') throw new HttpError(409, 'CONFLICT', APPROVAL_MESSAGES.nothingToSubmit);
      refused(outcome.refused, APPROVAL_MESSAGES.notSubmittable, APPROVAL_MESSAGES.receiptNotFound);
    }
    return this.detail(actor.workspaceId, outcome.moved.id);
  }

  /** The member's own reports, newest first. */
  async myReports(owner: Owner): Promise<ReportList> {
    const rows = await this.approvals.reportsOf(this.actor(owner).actor, OWN_REPORTS_MAX);
    return { reports: rows.map(toReportView) };
  }

  /** A report for its submitter or an approver; anyone else is told there is none. */
  async report(owner: Owner, reportId: string): Promise<ReportDetail> {
    const { actor, workspace } = this.actor(owner);
    const row = await this.approvals.report(actor.workspaceId, reportId);
    const mine = row?.report.submitterId === actor.userId;
    if (!row || (!mine && !workspaceAllows(workspace.role, 'receipts:approve', workspace))) throw notFound(APPROVAL_MESSAGES.reportNotFound);
    return this.withItems(actor.workspaceId, row);
  }

  private async detail(workspaceId: string, reportId: string): Promise<ReportDetail> {
    const row = await this.approvals.report(workspaceId, reportId);
    if (!row) throw notFound(APPROVAL_MESSAGES.reportNotFound);
    return this.withItems(workspaceId, row);
  }

  private async withItems(workspaceId: string, row: ReportRow): Promise<ReportDetail> {
    const items = await this.receipts.forApproval(workspaceId, { reportIds: [row.report.id] }, REPORT_RECEIPTS_MAX);
    return { ...toReportView(row), items: items.map(toApprovalReceipt) };
  }

  /** What waits for the caller's decision: others' receipts submitted alone, and others' reports with their receipts. */
  async queue(owner: Owner): Promise<ApprovalQueue> {
    const { actor } = this.actor(owner);
    const [receipts, reports] = await Promise.all([
      this.receipts.forApproval(actor.workspaceId, { awaitingFor: actor.userId }, APPROVAL_QUEUE_MAX),
      this.approvals.awaitingReports(actor, QUEUE_REPORTS_MAX),
    ]);
    const items = await this.receipts.forApproval(actor.workspaceId, { reportIds: reports.map((r) => r.report.id) }, QUEUE_REPORTS_MAX * REPORT_RECEIPTS_MAX);
    return {
      receipts: receipts.map(toApprovalReceipt),
      reports: reports.map((row) => ({ ...toReportView(row), items: items.filter((i) => i.upload.reportId === row.report.id).map(toApprovalReceipt) })),
    };
  }

  /** A report as an approver files it: a PDF, or the workbook of its receipts with their approval. */
  async reportExport(owner: Owner, reportId: string, format: 'pdf' | 'xlsx'): Promise<PreparedExport> {
    const { actor } = this.actor(owner);
    const report = await this.detail(actor.workspaceId, reportId);
    const name = fileNamePart(report.name, 'report');
    const detail = { format, preset: 'generic' as const, receipts: report.items.length, report: report.name };
    await this.audit.record(owner, 'export.downloaded', detail, reportId);
    if (format === 'xlsx') return this.exports.reportWorkbook(this.receipts.reportScope(actor.workspaceId, reportId), name);
    const { workspace } = await this.approvals.names(actor.workspaceId, actor.userId);
    const withIssues = report.items.filter((i) => !i.valid).length;
    return { filename: `${name}.pdf`, contentType: 'application/pdf', rows: report.items.length - withIssues, withIssues, skipped: 0, write: (out) => writeReportPdf(out, report, workspace) };
  }

  /** The policy's answer for deciding on what `uploaderId` submitted: never one's own, whatever one's role now. */
  private refuseOwn(workspace: WorkspaceScope, userId: string, uploaderId: string | null): void {
    if (!workspaceAllows(workspace.role, 'receipts:approve', { personal: workspace.personal, ownReceipt: uploaderId === userId })) {
      throw new HttpError(403, 'FORBIDDEN', APPROVAL_MESSAGES.ownReceipt);
    }
  }

  /** An approver approves or rejects a submitted receipt (a rejection says why); its uploader is told. */
  async decide(owner: Owner, receiptId: string, decision: ApprovalDecision, comment: string | undefined, links: string): Promise<LibraryReceipt> {
    const { actor, workspace } = this.actor(owner);
    const target = await this.approvals.target(actor.workspaceId, receiptId);
    if (!target) throw notFound(APPROVAL_MESSAGES.receiptNotFound);
    this.refuseOwn(workspace, actor.userId, target.uploaderId);
    const notice = await this.notice(actor, describe(target), comment);
    const outcome = await this.approvals.decide(actor, receiptId, { decision, comment: comment ?? null, notice });
    if ('refused' in outcome) refused(outcome.refused, APPROVAL_MESSAGES.notSubmitted, APPROVAL_MESSAGES.receiptNotFound);
    await this.mail(target.uploaderId, decision === 'approve' ? 'receipt.approved' : 'receipt.rejected', notice, links);
    return this.libraryView(owner, receiptId);
  }

  /** An approver approves or rejects a whole submitted report; its submitter is told once. */
  async decideReport(owner: Owner, reportId: string, decision: ApprovalDecision, comment: string | undefined, links: string): Promise<ReportDetail> {
    const { actor, workspace } = this.actor(owner);
    const row = await this.approvals.report(actor.workspaceId, reportId);
    if (!row) throw notFound(APPROVAL_MESSAGES.reportNotFound);
    this.refuseOwn(workspace, actor.userId, row.report.submitterId);
    const notice = await this.notice(actor, `“${row.report.name}”`, comment);
    const outcome = await this.approvals.decideReport(actor, reportId, { decision, comment: comment ?? null, notice });
    if ('refused' in outcome) refused(outcome.refused, APPROVAL_MESSAGES.reportNotSubmitted, APPROVAL_MESSAGES.reportNotFound);
    await this.mail(row.report.submitterId, decision === 'approve' ? 'report.approved' : 'report.rejected', notice, links);
    return this.detail(actor.workspaceId, reportId);
  }

  private async notice(actor: Actor, what: string, comment: string | undefined): Promise<NotificationDetail> {
    const names = await this.approvals.names(actor.workspaceId, actor.userId);
    return { workspace: names.workspace, what, by: names.person, comment: comment ?? null };
  }

  /**
   * E-mails the decision to the person it is about. The decision and its in-app notification are
   * stored already: a mail that cannot be sent is logged, not the approver's error.
   */
  private async mail(userId: string | null, kind: NotificationKind, notice: NotificationDetail, links: string): Promise<void> {
    if (!userId) return;
    const user = await this.users.byId(userId);
    if (!user) return;
    await this.mailer.send({ to: user.email, ...decisionMail(kind, notice, links) }).catch((err: unknown) => this.log.warn({ err, kind }, 'decision mail not sent; the in-app notification stands'));
  }
}
