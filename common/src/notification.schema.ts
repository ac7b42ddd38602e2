import { z } from 'zod';

/** What a person is told about in the app (and by e-mail): an approver's decision on their receipt or report. */
export const NOTIFICATION_KINDS = ['receipt.approved', 'receipt.rejected', 'report.approved', 'report.rejected'] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** What a notification says beside its kind, as it was when it was made. */
export const notificationDetailSchema = z.object({
  /** The workspace it happened in. */
  workspace: z.string(),
  /** What was decided on: a receipt as "merchant, day, total", or the report's name. */
  what: z.string(),
  /** Who decided (their name); null once unknown. */
  by: z.string().nullable(),
  comment: z.string().nullable(),
});
export type NotificationDetail = z.infer<typeof notificationDetailSchema>;

const VERBS: Record<NotificationKind, string> = {
  'receipt.approved': 'approved your receipt',
  'receipt.rejected': 'rejected your receipt',
  'report.approved': 'approved your report',
  'report.rejected': 'rejected your report',
};

/** The one line that says what happened, in the app's list and as an e-mail's first line. */
export function notificationText(kind: NotificationKind, detail: NotificationDetail): string {
  const line = `${detail.by ?? 'An approver'} ${VERBS[kind]} ${detail.what} in ${detail.workspace}.`;
  return detail.comment ? `${line} “${detail.comment}”` : line;
}

/** What the person is asked to do next, if anything: a rejection wants a correction and a resubmission. */
export function notificationNextStep(kind: NotificationKind): string | null {
  return kind.endsWith('.rejected') ? 'Correct the receipt in your receipts, then submit it again.' : null;
}

/** One notification as the nav's list shows it. */
export const notificationViewSchema = z.object({
  id: z.uuid(),
  kind: notificationKindSchema,
  /** The receipt's or the report's id. */
  subject: z.string().nullable(),
  workspaceId: z.uuid(),
  text: z.string(),
  read: z.boolean(),
  at: z.string(),
});
export type NotificationView = z.infer<typeof notificationViewSchema>;

/** Notifications the list holds at most, newest first. */
export const NOTIFICATIONS_SHOWN = 30;

/** GET /api/notifications: the latest, and how many are unread in all. */
export const notificationListSchema = z.object({ items: z.array(notificationViewSchema), unread: z.number().int() });
export type NotificationList = z.infer<typeof notificationListSchema>;

/** POST /api/notifications/read: these (or, without ids, every one) are read. */
export const markNotificationsReadSchema = z.object({ ids: z.array(z.uuid()).min(1).max(NOTIFICATIONS_SHOWN * 10).optional() }).strict();
