import {
  webhookCreateSchema,
  webhookDeliveryListSchema,
  webhookDeliveryViewSchema,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointViewSchema,
  webhookUpdateSchema,
} from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import { failingAs, idParams, uuidParam } from '../validate.middleware.js';
import type { WebhookService } from './webhook.service.js';

/** A browser session's only (no token scope): who holds a token must not point the account's events elsewhere. */
const HOOKS = { tag: 'webhooks', caller: 'account', scope: null } as const;
const NOT_FOUND = { 404: ['NOT_FOUND'] } as const;

const deliveryParams = failingAs('BAD_REQUEST', z.object({ id: uuidParam, deliveryId: uuidParam }));

/**
 * /api/user/webhooks: the signed-in account's webhook endpoints and their deliveries (the shapes
 * are the zod schemas in common/src/webhook.schema.ts).
 */
export function webhookRoutes(service: WebhookService, users: UserRepository): Router {
  const router = Router();
  router.use('/webhooks', requireUser);

  router.get('/webhooks', route({ ...HOOKS, summary: 'Your webhook endpoints', answers: { 200: webhookEndpointListSchema } }), async (req, res) => {
    res.json({ endpoints: await service.list(req.owner.userId!) });
  });

  /** 201 with the endpoint and its `secret`, shown this once. */
  const create = route({
    ...HOOKS,
    summary: 'Register a webhook endpoint (its signing secret is answered this once)',
    description: 'The account’s address must be confirmed.',
    receive: [currentUser(users)],
    body: webhookCreateSchema,
    answers: { 201: webhookEndpointCreatedSchema },
    errors: { 403: ['EMAIL_NOT_VERIFIED'], 409: ['CONFLICT'] },
  });
  router.post('/webhooks', create, async (req, res) => {
    res.status(201).json(await service.create(req.user!, req.body));
  });

  const update = route({ ...HOOKS, summary: 'Change an endpoint’s events, or turn it on or off', body: webhookUpdateSchema, params: idParams, answers: { 200: webhookEndpointViewSchema }, errors: NOT_FOUND });
  router.patch('/webhooks/:id', update, async (req, res) => {
    res.json(await service.update(req.owner.userId!, req.params.id, req.body));
  });

  router.delete('/webhooks/:id', route({ ...HOOKS, summary: 'Delete a webhook endpoint', params: idParams, answers: { 204: null }, errors: NOT_FOUND }), async (req, res) => {
    await service.remove(req.owner.userId!, req.params.id);
    res.status(204).end();
  });

  /** The latest deliveries, newest first: { deliveries }. */
  const log = route({ ...HOOKS, summary: 'An endpoint’s latest deliveries, newest first', params: idParams, answers: { 200: webhookDeliveryListSchema }, errors: NOT_FOUND });
  router.get('/webhooks/:id/deliveries', log, async (req, res) => {
    res.json({ deliveries: await service.deliveries(req.owner.userId!, req.params.id) });
  });

  /** 202 with the new delivery; the worker sends it. */
  const redeliver = route({ ...HOOKS, summary: 'Send a delivery again', params: deliveryParams, answers: { 202: webhookDeliveryViewSchema }, errors: NOT_FOUND });
  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', redeliver, async (req, res) => {
    res.status(202).json(await service.redeliver(req.owner.userId!, req.params.id, req.params.deliveryId));
  });

  /** 202 with the test delivery (`webhook.ping`). */
  const test = route({ ...HOOKS, summary: 'Send a test delivery (webhook.ping)', params: idParams, answers: { 202: webhookDeliveryViewSchema }, errors: NOT_FOUND });
  router.post('/webhooks/:id/test', test, async (req, res) => {
    res.status(202).json(await service.test(req.owner.userId!, req.params.id));
  });

  return router;
}
