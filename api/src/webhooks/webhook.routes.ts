import { webhookCreateSchema, webhookUpdateSchema } from '@receipts/common';
import { Router } from 'express';
import { z } from 'zod';
import { requireUser } from '../owner.middleware.js';
import { failingAs, idParams, uuidParam, validate } from '../validate.middleware.js';
import type { WebhookService } from './webhook.service.js';

const deliveryParams = failingAs('BAD_REQUEST', z.object({ id: uuidParam, deliveryId: uuidParam }));

/**
 * /api/user/webhooks: the signed-in account's webhook endpoints and their deliveries (the shapes
 * are the zod schemas in common/src/webhook.schema.ts). A browser session's only: who holds a
 * token must not point the account's events elsewhere.
 */
export function webhookRoutes(service: WebhookService): Router {
  const router = Router();
  router.use('/webhooks', requireUser);

  router.get('/webhooks', async (req, res) => {
    res.json({ endpoints: await service.list(req.session.userId!) });
  });

  /** 201 with the endpoint and its `secret`, shown this once. */
  router.post('/webhooks', validate({ body: webhookCreateSchema }), async (req, res) => {
    res.status(201).json(await service.create(req.session.userId!, req.body));
  });

  router.patch('/webhooks/:id', validate({ body: webhookUpdateSchema, params: idParams }), async (req, res) => {
    res.json(await service.update(req.session.userId!, req.params.id, req.body));
  });

  router.delete('/webhooks/:id', validate({ params: idParams }), async (req, res) => {
    await service.remove(req.session.userId!, req.params.id);
    res.status(204).end();
  });

  /** The latest deliveries, newest first: { deliveries }. */
  router.get('/webhooks/:id/deliveries', validate({ params: idParams }), async (req, res) => {
    res.json({ deliveries: await service.deliveries(req.session.userId!, req.params.id) });
  });

  /** 202 with the new delivery; the worker sends it. */
  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', validate({ params: deliveryParams }), async (req, res) => {
    res.status(202).json(await service.redeliver(req.session.userId!, req.params.id, req.params.deliveryId));
  });

  /** 202 with the test delivery (`webhook.ping`). */
  router.post('/webhooks/:id/test', validate({ params: idParams }), async (req, res) => {
    res.status(202).json(await service.test(req.session.userId!, req.params.id));
  });

  return router;
}
