import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { adminRetrySchema, adminUploadSchema, adminUserSchema, adminUserTypeSchema, queueStatsSchema, safeText, uploadStatusSchema, userTypeSchema } from '@receipts/common';
import type { ReceiptQueue } from '@receipts/infra';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { AccountService } from '../auth/account.service.js';
import { HttpError } from '../http-error.js';
import { requireXhrHeader } from '../security.js';
import { route } from '../route-spec.js';
import { idParams } from '../validate.middleware.js';
import type { AdminService } from './admin.service.js';

/** Admins only: 401 for visitors who are not signed in, 403 for everyone else (spec §6). */
export function requireAdmin(accounts: AccountService): RequestHandler {
  return (req, _res, next) => {
    const userId = req.owner.userId;
    if (!userId) return next(new HttpError(401, 'UNAUTHENTICATED', 'Authentication required'));
    accounts.findById(userId).then(
      (user) => next(user && accounts.isAdmin(user) ? undefined : new HttpError(403, 'FORBIDDEN', 'Admins only.')),
      next,
    );
  };
}

const page = z.coerce.number().int().min(1).default(1);
const usersQuery = z.object({ page, search: safeText().trim().min(1).optional() });
const uploadsQuery = z.object({ page, status: uploadStatusSchema.optional() });
const userTypeBody = z.object({ userType: userTypeSchema });

/** What every admin route says of itself besides its own: admins only, by requireAdmin before the router. */
const admins = { tag: 'admin', scope: null, caller: 'account' } as const;

/** /api/admin, behind requireAdmin: users and their roles, uploads, the queue, and retrying a failed upload. */
export function adminRoutes(admin: AdminService): Router {
  const router = Router();
  router.get(
    '/users',
    route({
      ...admins,
      summary: 'Users, fifty a page',
      description: 'Newest first; `search` finds a part of the address or the name.',
      query: usersQuery,
      answers: { 200: z.array(adminUserSchema) },
    }),
    async (req, res) => {
      const { search, page } = req.query;
      res.json(await admin.userPage(search, page));
    },
  );
  router.patch(
    '/users/:id',
    route({
      ...admins,
      summary: 'Make a user an admin, or not',
      body: userTypeBody,
      params: idParams,
      answers: { 200: adminUserTypeSchema },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      res.json(await admin.setUserType(req.params.id, req.body.userType));
    },
  );
  router.get(
    '/uploads',
    route({
      ...admins,
      summary: 'Uploads of every owner, fifty a page',
      description: 'Newest first, of one status if given.',
      query: uploadsQuery,
      answers: { 200: z.array(adminUploadSchema) },
    }),
    async (req, res) => {
      const { status, page } = req.query;
      res.json(await admin.uploadPage(status, page));
    },
  );
  router.get(
    '/queues',
    route({ ...admins, summary: 'The queue’s jobs by lane and state', answers: { 200: queueStatsSchema } }),
    async (_req, res) => {
      res.json(await admin.queues());
    },
  );
  router.post(
    '/uploads/:id/retry',
    route({
      ...admins,
      summary: 'Retry a failed upload',
      description: 'Back in its lane, on the house: no quota is taken.',
      params: idParams,
      answers: { 200: adminRetrySchema },
      errors: { 409: ['NOT_CANCELLABLE'] },
    }),
    async (req, res) => {
      res.json(await admin.retry(req.params.id));
    },
  );
  return router;
}

/**
 * Puts the api's CSRF header on the dashboard's own calls: bull-board's client cannot be told
 * to send it. A file of its own, as the CSP allows no inline script.
 */
const XHR_HEADER_SCRIPT = `(() => {
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (...args) {
    open.apply(this, args);
    this.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
  };
})();
`;
const XHR_HEADER_PATH = '/xhr-header.js';

/** Loads XHR_HEADER_SCRIPT in the dashboard's page, before bull-board's deferred scripts. */
const withXhrHeaderScript: RequestHandler = (_req, res, next) => {
  const send = res.send.bind(res);
  res.send = (body?: unknown) =>
    send(typeof body === 'string' && body.includes('</head>') ? body.replace('</head>', `<script src=".${XHR_HEADER_PATH}"></script></head>`) : body);
  next();
};

/**
 * The BullMQ dashboard (bull-board), served under /admin/queues. Its state-changing calls
 * (pause, retry, clean) need X-Requested-With like every other one (spec §7).
 */
export function queueDashboard(queue: ReceiptQueue): Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath('/admin/queues');
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter: adapter });
  const router = Router();
  router.get(XHR_HEADER_PATH, (_req, res) => {
    res.type('text/javascript').send(XHR_HEADER_SCRIPT);
  });
  router.use(requireXhrHeader([]), withXhrHeaderScript, adapter.getRouter() as Router);
  return router;
}
