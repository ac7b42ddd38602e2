import { z } from 'zod';
import { safeText } from './control-characters.rule.js';
import { libraryReceiptSchema } from './receipt-library.schema.js';
import { APPROVAL_COMMENT_MAX, APPROVAL_MESSAGES, REPORT_NAME_MAX, REPORT_RECEIPTS_MAX } from './approval.rule.js';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD');

/** The decision comment: optional on an approval, required on a rejection. */
const commentSchema = safeText().trim().max(APPROVAL_COMMENT_MAX, APPROVAL_MESSAGES.commentTooLong);

/** POST …/approve body. */
export const approveBodySchema = z.object({ comment: commentSchema.optional() }).strict();
/** POST …/reject body. */
export const rejectBodySchema = z
  .object({ comment: safeText({ message: APPROVAL_MESSAGES.rejectNeedsComment }).trim().min(1, APPROVAL_MESSAGES.rejectNeedsComment).max(APPROVAL_COMMENT_MAX, APPROVAL_MESSAGES.commentTooLong) })
  .strict();
export type DecisionBody = { comment?: string };

/**
 * POST /api/reports: a named batch for a period. With `receiptIds`, those of the member's draft or
 * rejected receipts; without, every draft whose day (the receipt's, else its upload's) is in the
 * period.
 */
export const createReportSchema = z
  .object({
    name: safeText({ message: APPROVAL_MESSAGES.reportNameRequired }).trim().min(1, APPROVAL_MESSAGES.reportNameRequired).max(REPORT_NAME_MAX, APPROVAL_MESSAGES.reportNameTooLong),
    from: isoDay,
    to: isoDay,
    receiptIds: z.array(z.uuid()).min(1).max(REPORT_RECEIPTS_MAX, APPROVAL_MESSAGES.tooManyReceipts).optional(),
  })
  .strict()
  .refine((r) => r.from <= r.to, { message: APPROVAL_MESSAGES.periodOrder, path: ['to'] });
export type CreateReportInput = z.infer<typeof createReportSchema>;

/**
 * A report's state, from its receipts': `submitted` while any waits for a decision, then
 * `approved` or `rejected` when all were decided alike, else `partly-approved`.
 */
export const REPORT_STATUSES = ['submitted', 'approved', 'rejected', 'partly-approved'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
  'partly-approved': 'Partly approved',
};

/** A receipt in the approval queue or a report: the library's view and who uploaded it. */
export const approvalReceiptSchema = libraryReceiptSchema.extend({ submitter: z.string().nullable() });
export type ApprovalReceipt = z.infer<typeof approvalReceiptSchema>;

/** An expense report as its submitter's list and the approvers' queue show it. */
export const reportViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  from: z.string(),
  to: z.string(),
  status: reportStatusSchema,
  /** Who submitted it (their name); null once the account is gone. */
  submitter: z.string().nullable(),
  /** The comment of the decision on the whole report, if one was taken. */
  comment: z.string().nullable(),
  decidedBy: z.string().nullable(),
  receipts: z.number().int(),
  /** Each currency's total of its receipts: never a sum across currencies. */
  totals: z.array(z.object({ currency: z.string(), total: z.number() })),
  createdAt: z.string(),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type ReportView = z.infer<typeof reportViewSchema>;

/** GET /api/reports/:id: the report with its receipts. */
export const reportDetailSchema = reportViewSchema.extend({ items: z.array(approvalReceiptSchema) });
export type ReportDetail = z.infer<typeof reportDetailSchema>;

/** GET /api/reports: the caller's own reports, newest first. */
export const reportListSchema = z.object({ reports: z.array(reportViewSchema) });
export type ReportList = z.infer<typeof reportListSchema>;

/** GET /api/approvals: what waits for the caller's decision, others' receipts submitted alone and others' reports. */
export const approvalQueueSchema = z.object({
  receipts: z.array(approvalReceiptSchema),
  reports: z.array(reportDetailSchema),
});
export type ApprovalQueue = z.infer<typeof approvalQueueSchema>;

/** GET /api/reports/:id/export query. */
export const REPORT_EXPORT_FORMATS = ['pdf', 'xlsx'] as const;
export const reportExportQuerySchema = z.object({ format: z.enum(REPORT_EXPORT_FORMATS).default('pdf') });
