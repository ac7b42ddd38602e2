import { notificationNextStep, notificationText, type NotificationDetail, type NotificationKind } from '@receipts/common';

const SUBJECTS: Record<NotificationKind, string> = {
  'receipt.approved': 'Your receipt was approved',
  'receipt.rejected': 'Your receipt was rejected',
  'report.approved': 'Your expense report was approved',
  'report.rejected': 'Your expense report was rejected',
};

/** The e-mail telling a member of an approver's decision: the app's notification, what to do next, and where. */
export function decisionMail(kind: NotificationKind, notice: NotificationDetail, links: string): { subject: string; text: string } {
  const next = notificationNextStep(kind);
  return {
    subject: SUBJECTS[kind],
    text: `${notificationText(kind, notice)}\n\n${next ? `${next}\n` : ''}Your receipts: ${links}/receipts\n`,
  };
}
