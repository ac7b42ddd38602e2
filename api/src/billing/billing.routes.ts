import {
  billingOverviewSchema,
  billingPortalSchema,
  catalogueSchema,
  createSubscriptionSchema,
  stripeWebhookAnswerSchema,
  subscriptionSetupSchema,
  USER_MESSAGES,
} from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import express, { Router } from 'express';
import type { AccountService } from '../auth/account.service.js';
import { HttpError } from '../http-error.js';
import { currentUser, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { BillingService } from './billing.service.js';

/** Stripe calls the webhook with a signed raw body: mounted before the api's JSON parser and session. */
export function stripeWebhookRoute(billing: BillingService): Router {
  const router = Router();
  router.post(
    '/stripe/webhook',
    route({
      summary: 'Stripe’s events about subscriptions and invoices',
      description: 'Called by Stripe only, signed with the webhook secret; each event is applied once.',
      tag: 'billing',
      scope: null,
      caller: 'signature',
      bodyMedia: 'raw',
      headers: { 'Stripe-Signature': 'Stripe’s signature of the body.' },
      receive: [express.raw({ type: '*/*', limit: '1mb' })],
      answers: { 200: stripeWebhookAnswerSchema },
    }),
    async (req, res) => {
      const applied = await billing.handleWebhook(req.body as Buffer, req.get('stripe-signature'));
      res.json({ received: true, applied });
    },
  );
  return router;
}

/**
 * The plans, and the plan of the workspace a request acts in: its owner subscribes (and pays),
 * reads its invoices, cancels it and reaches Stripe's portal (`billing:manage`).
 */
export function billingRoutes(billing: BillingService, users: UserRepository, accounts: AccountService): Router {
  const router = Router();
  const signedIn = currentUser(users);

  router.get(
    '/plans',
    route({ summary: 'The plans and their prices', tag: 'billing', scope: 'public', caller: 'anyone', answers: { 200: catalogueSchema } }),
    (_req, res) => {
      res.json(billing.catalogue());
    },
  );

  router.post(
    '/create-subscription',
    route({
      summary: 'Subscribe the workspace to a plan',
      description:
        'By the workspace’s owner, whose address is confirmed and who pays; every member’s uploads there then share the plan’s monthly quota and the express lane. Answers the secret Stripe’s payment form confirms the first invoice with; in test mode the plan is active at once.',
      tag: 'billing',
      scope: null,
      caller: 'account',
      workspace: 'billing:manage',
      receive: [signedIn],
      body: createSubscriptionSchema,
      answers: { 200: subscriptionSetupSchema },
      errors: { 403: ['EMAIL_NOT_VERIFIED'], 502: ['SERVICE_UNAVAILABLE'] },
    }),
    async (req, res) => {
      const { planId, stripePriceId } = req.body;
      // A plan belongs to a confirmed address: an unconfirmed one may be someone else's.
      if (!accounts.isEmailVerified(req.user!)) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', USER_MESSAGES.confirmBeforeSubscribing);
      res.json(await billing.createSubscription(req.user!, workspaceOf(req).id, planId, stripePriceId));
    },
  );

  router.get(
    '/billing',
    route({
      summary: 'The workspace’s plan, its next charge and the invoices',
      tag: 'billing',
      scope: null,
      caller: 'account',
      workspace: 'billing:manage',
      answers: { 200: billingOverviewSchema },
    }),
    requireUser,
    async (req, res) => {
      res.json(await billing.overview(workspaceOf(req).id));
    },
  );

  router.post(
    '/billing/cancel',
    route({
      summary: 'Cancel the workspace’s subscription at the end of its period',
      tag: 'billing',
      scope: null,
      caller: 'account',
      workspace: 'billing:manage',
      answers: { 200: billingOverviewSchema },
      errors: { 404: ['NOT_FOUND'] },
    }),
    requireUser,
    async (req, res) => {
      const { id } = workspaceOf(req);
      await billing.cancelAtPeriodEnd(id);
      res.json(await billing.overview(id));
    },
  );

  router.post(
    '/billing/portal',
    route({
      summary: 'A link to Stripe’s billing portal',
      description: 'Where the paying account manages its payment methods and invoices.',
      tag: 'billing',
      scope: null,
      caller: 'account',
      workspace: 'billing:manage',
      answers: { 200: billingPortalSchema },
      errors: { 404: ['NOT_FOUND'] },
    }),
    signedIn,
    async (req, res) => {
      res.json({ url: await billing.portalUrl(req.user!) });
    },
  );

  return router;
}
