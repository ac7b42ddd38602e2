import { z } from 'zod';
import { receiptNeedsApproval, type WorkspaceRole } from './workspace-policy.rule.js';

/**
 * Where a receipt stands in the submit → approve step. `not-required`: its uploader's receipts
 * need no approver (owner, admin, accountant, a personal workspace); `draft`: a member's, not yet
 * submitted; then `submitted`, and the latest decision, `approved` or `rejected`.
 */
export const APPROVAL_STATUSES = ['not-required', 'draft', 'submitted', 'approved', 'rejected'] as const;
export const approvalStatusSchema = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/** Receipts that count: the ones the workspace's import files carry. */
export const CLEARED_APPROVALS: readonly ApprovalStatus[] = ['not-required', 'approved'];

/**
 * Every move of the approval step with the statuses it may start from. A move is one guarded
 * UPDATE (infra's approval.repository.ts): of two racing decisions exactly one wins.
 */
export const APPROVAL_MOVES = {
  /** A member sends a draft, or a rejected receipt after correcting it. */
  submit: ['draft', 'rejected'],
  approve: ['submitted'],
  reject: ['submitted'],
} as const satisfies Record<string, readonly ApprovalStatus[]>;
export type ApprovalMove = keyof typeof APPROVAL_MOVES;
export type ApprovalDecision = Exclude<ApprovalMove, 'submit'>;

export function mayApprovalMove(move: ApprovalMove, status: ApprovalStatus): boolean {
  return (APPROVAL_MOVES[move] as readonly ApprovalStatus[]).includes(status);
}

/** The status a new upload starts in, from its uploader's role where it is made. */
export function initialApproval(uploaderRole: WorkspaceRole, personal: boolean): ApprovalStatus {
  return receiptNeedsApproval(uploaderRole, personal) ? 'draft' : 'not-required';
}

/**
 * A member may not change a receipt that waits for or has an approver's decision: what was
 * approved is what gets exported. An approver (who reviews it) may.
 */
export const LOCKED_APPROVALS: readonly ApprovalStatus[] = ['submitted', 'approved'];

/** How each status is shown: badges, the workbook's Approval column. */
export const APPROVAL_LABELS: Record<ApprovalStatus, string> = {
  'not-required': 'No approval needed',
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const REPORT_NAME_MAX = 100;
export const APPROVAL_COMMENT_MAX = 1000;
/** Receipts one report (or one listed submission) holds at most. */
export const REPORT_RECEIPTS_MAX = 500;
/** Receipts the approval queue lists at most, oldest submission first. */
export const APPROVAL_QUEUE_MAX = 200;

/** Messages of the approval step, said by the api and shown by the web. */
export const APPROVAL_MESSAGES = {
  reportNameRequired: 'Name the report.',
  reportNameTooLong: `A report name is at most ${REPORT_NAME_MAX} characters.`,
  periodOrder: 'The period ends on or after the day it starts.',
  commentTooLong: `A comment is at most ${APPROVAL_COMMENT_MAX} characters.`,
  rejectNeedsComment: 'Say what needs correcting: a rejection needs a comment.',
  tooManyReceipts: `A report holds at most ${REPORT_RECEIPTS_MAX} receipts.`,
  receiptNotFound: 'Receipt not found',
  reportNotFound: 'Report not found',
  notSubmittable: 'Only a draft or a rejected receipt can be submitted; this one is submitted or decided already.',
  busy: 'This receipt is being read again. Submit it when the new reading is done.',
  notSubmitted: 'This receipt is not waiting for a decision: it was decided already or withdrawn.',
  reportNotSubmitted: 'This report is not waiting for a decision: it was decided already.',
  nothingToSubmit: 'No draft receipts in that period to submit.',
  ownReceipt: 'You cannot approve or reject a receipt you uploaded yourself.',
  locked: 'This receipt is submitted or approved: it cannot be changed unless an approver rejects it.',
} as const;

/** Why valid receipts are not in an import file: they wait for (or did not get) an approver's yes. */
export function awaitingApproval(receipts: number): string {
  return `${receipts} valid receipt${receipts === 1 ? ' is' : 's are'} not approved yet, and only approved receipts go into the import files. The workbook shows every receipt with its approval.`;
}

/** A receipt's approval as the upload views show it. */
export const uploadApprovalSchema = z.object({
  status: approvalStatusSchema,
  /** The latest decision's comment (kept after a resubmission, so the approver sees why it came back). */
  comment: z.string().nullable(),
});
export type UploadApproval = z.infer<typeof uploadApprovalSchema>;

/** A receipt's approval as the library, its details and the queue show it. */
export const approvalViewSchema = uploadApprovalSchema.extend({
  /** Who took the latest decision (their name), null when none was taken or the account is gone. */
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** The report it was last submitted in; null: submitted alone, or never. */
  reportId: z.uuid().nullable(),
});
export type ApprovalView = z.infer<typeof approvalViewSchema>;
