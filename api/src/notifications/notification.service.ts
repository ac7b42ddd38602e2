import { NOTIFICATIONS_SHOWN, type NotificationList } from '@receipts/common';
import type { NotificationRepository } from '@receipts/infra';

/** A person's notifications (an approver's decisions on their receipts), in every workspace they are in. */
export class NotificationService {
  constructor(private readonly notifications: NotificationRepository) {}

  list(userId: string): Promise<NotificationList> {
    return this.notifications.list(userId, NOTIFICATIONS_SHOWN);
  }

  /** These of the person's notifications (or all of them) are read; another person's ids change nothing. */
  markRead(userId: string, ids?: readonly string[]): Promise<void> {
    return this.notifications.markRead(userId, ids);
  }
}
