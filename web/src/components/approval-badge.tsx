import { APPROVAL_LABELS, REPORT_STATUS_LABELS, type ApprovalStatus, type ReportStatus } from '@receipts/common';
import './approval-badge.css';

const TONE: Record<ApprovalStatus | ReportStatus, string> = {
  'not-required': '',
  draft: '',
  submitted: 'tag-info',
  approved: 'tag-ok',
  rejected: 'tag-warn',
  'partly-approved': 'tag-warn',
};

/** Where a receipt stands in the approval step; nothing where there is no step (it needs no approval). */
export function ApprovalBadge({ status }: { status: ApprovalStatus }) {
  if (status === 'not-required') return null;
  return <span className={`tag approval-badge ${TONE[status]}`}>{APPROVAL_LABELS[status]}</span>;
}

/** A report's status. */
export function ReportBadge({ status }: { status: ReportStatus }) {
  return <span className={`tag approval-badge ${TONE[status]}`}>{REPORT_STATUS_LABELS[status]}</span>;
}

/** The decision's comment under a rejected (or commented) receipt, with who said it. */
export function ApprovalComment({ comment, by }: { comment: string | null; by?: string | null }) {
  if (!comment) return null;
  return (
    <p className="approval-comment small">
      {by ? <strong>{by}: </strong> : null}
      {comment}
    </p>
  );
}
