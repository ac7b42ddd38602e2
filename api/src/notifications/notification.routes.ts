import { markNotificationsReadSchema, notificationListSchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { NotificationService } from './notification.service.js';

const BASE = { tag: 'notifications', caller: 'account' as const, scope: null, receive: [requireUser] };

/** /api/notifications: what the nav's bell lists, and marking it read. Not a workspace's: a person's, from all of theirs. */
export function notificationRoutes(service: NotificationService): Router {
  const router = Router();

  const list = route({ ...BASE, summary: 'Your latest notifications, and how many are unread', answers: { 200: notificationListSchema } });
  router.get('/', list, async (req, res) => {
    res.json(await service.list(req.owner.userId!));
  });

  const read = route({ ...BASE, summary: 'Mark notifications read (without ids: all of them)', body: markNotificationsReadSchema, answers: { 204: null } });
  router.post('/read', read, async (req, res) => {
    await service.markRead(req.owner.userId!, req.body.ids);
    res.status(204).end();
  });

  return router;
}
