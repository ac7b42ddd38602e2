import { createSubscriptionSchema, USER_MESSAGES } from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import express, { Router } from 'express';
import type { AccountService } from '../auth/account.service.js';
import { HttpError } from '../http-error.js';
import { currentUser, requireUser } from '../owner.middleware.js';
import { validate } from '../validate.middleware.js';
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

export function billingRoutes(billing: BillingService, users: UserRepository, accounts: AccountService): Router {
  const router = Router();
  const signedIn = currentUser(users);

  router.get('/plans', (_req, res) => {
    res.json(billing.catalogue());
  });

  router.post('/create-subscription', signedIn, validate({ body: createSubscriptionSchema }), async (req, res) => {
    const { planId, stripePriceId } = req.body;
    // A plan belongs to a confirmed address: an unconfirmed one may be someone else's.
    if (!accounts.isEmailVerified(req.user!)) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', USER_MESSAGES.confirmBeforeSubscribing);
    res.json(await billing.createSubscription(req.user!, planId, stripePriceId));
  });

  router.get('/billing', requireUser, async (req, res) => {
    res.json(await billing.overview(req.owner.userId!));
  });

  router.post('/billing/cancel', requireUser, async (req, res) => {
    await billing.cancelAtPeriodEnd(req.owner.userId!);
    res.json(await billing.overview(req.owner.userId!));
  });

  router.post('/billing/portal', signedIn, async (req, res) => {
    res.json({ url: await billing.portalUrl(req.user!) });
  });

  return router;
}
