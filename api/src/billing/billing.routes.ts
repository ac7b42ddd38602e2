import { createSubscriptionSchema } from '@receipts/common';
import express, { Router } from 'express';
import type { AccountService } from '../auth/account.service.js';
import { requireUser } from '../auth/session-guard.js';
import { HttpError, parseBody } from '../http-error.js';
import type { BillingService } from './billing.service.js';

/** Stripe calls the webhook with a signed raw body: mounted before the api's JSON parser and session. */
export function stripeWebhookRoute(billing: BillingService): Router {
  const router = Router();
  router.post('/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res) => {
    const applied = await billing.handleWebhook(req.body as Buffer, req.get('stripe-signature'));
    res.json({ received: true, applied });
  });
  return router;
}

export function billingRoutes(billing: BillingService, accounts: AccountService): Router {
  const router = Router();
  const currentUser = async (id: string) => {
    const user = await accounts.findById(id);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');
    return user;
  };

  router.get('/plans', (_req, res) => {
    res.json(billing.catalogue());
  });

  router.post('/create-subscription', requireUser, async (req, res) => {
    const { planId, stripePriceId } = parseBody(createSubscriptionSchema, req.body);
    res.json(await billing.createSubscription(await currentUser(req.session.userId!), planId, stripePriceId));
  });

  router.get('/billing', requireUser, async (req, res) => {
    res.json(await billing.overview(req.session.userId!));
  });

  router.post('/billing/cancel', requireUser, async (req, res) => {
    await billing.cancelAtPeriodEnd(req.session.userId!);
    res.json(await billing.overview(req.session.userId!));
  });

  router.post('/billing/portal', requireUser, async (req, res) => {
    res.json({ url: await billing.portalUrl(await currentUser(req.session.userId!)) });
  });

  return router;
}
