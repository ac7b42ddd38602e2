import { notificationText, type NotificationDetail, type NotificationKind, type NotificationView } from '@receipts/common';
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Executor } from './db/database.js';
import { notifications, type NotificationRow } from './db/schema.js';

/** One thing to tell a person: what happened, where, to what. */
export interface NotificationEntry {
  userId: string;
  workspaceId: string;
  kind: NotificationKind;
  subject: string | null;
  detail: NotificationDetail;
}

/** Records a notification, in the caller's transaction when it passes one: told exactly when the act happened. */
export async function notify(db: Executor, entry: NotificationEntry): Promise<void> {
  await db.insert(notifications).values(entry);
}

export const toNotificationView = (row: NotificationRow): NotificationView => ({
  id: row.id,
  kind: row.kind,
  subject: row.subject,
  workspaceId: row.workspaceId,
  text: notificationText(row.kind, row.detail),
  read: row.readAt !== null,
  at: row.createdAt.toISOString(),
});

/** A person's notifications, in every workspace they are in: the nav's list. */
export class NotificationRepository {
  constructor(private readonly db: Database) {}

  /** The latest `limit`, newest first, and how many are unread in all. */
  async list(userId: string, limit: number): Promise<{ items: NotificationView[]; unread: number }> {
    const [rows, [unread]] = await Promise.all([
      this.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit),
      this.db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
    ]);
    return { items: rows.map(toNotificationView), unread: Number(unread?.n ?? 0) };
  }

  /** Marks the person's notifications read: these (another person's ids change nothing), or all. */
  async markRead(userId: string, ids?: readonly string[]): Promise<void> {
    await this.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, [...ids]) : undefined));
  }
}
