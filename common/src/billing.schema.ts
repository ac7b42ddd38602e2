import { z } from 'zod';
import { planSchema } from './plan.catalog.js';

/**
 * GET /api/plans: the plans with the Stripe price each is sold at (null while none is
 * configured), the key Stripe's payment form needs, and whether plans are activated without
 * payment (test mode).
 */
export const catalogueSchema = z.object({
  plans: z.array(planSchema.extend({ stripePriceId: z.string().nullable() })),
  publishableKey: z.string().nullable(),
  testMode: z.boolean(),
});
export type Catalogue = z.infer<typeof catalogueSchema>;
export type CataloguePlan = Catalogue['plans'][number];

/**
 * POST /api/create-subscription: the secret Stripe's payment form confirms the first invoice
 * with, or in test mode the plan already active and the words that say so.
 */
export const subscriptionSetupSchema = z.union([z.object({ clientSecret: z.string() }), z.object({ testMode: z.literal(true), message: z.string() })]);
export type SubscriptionSetup = z.infer<typeof subscriptionSetupSchema>;

/** GET /api/billing (and POST /api/billing/cancel): the plan, its state, the next charge and the invoices, amounts in units of their currency. */
export const billingOverviewSchema = z.object({
  plan: planSchema.pick({ id: true, name: true, price: true, receiptLimit: true }).nullable(),
  status: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  nextCharge: z.object({ date: z.string(), amount: z.number(), currency: z.string() }).nullable(),
  invoices: z.array(z.object({ id: z.string(), amount: z.number(), currency: z.string(), status: z.string(), url: z.string().nullable(), date: z.string() })),
  testMode: z.boolean(),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

/** POST /api/billing/portal: Stripe's page where the customer manages payment methods and invoices. */
export const billingPortalSchema = z.object({ url: z.string() });
export type BillingPortal = z.infer<typeof billingPortalSchema>;

/** POST /api/stripe/webhook: the event was taken; `applied` is false when it had been applied before. */
export const stripeWebhookAnswerSchema = z.object({ received: z.literal(true), applied: z.boolean() });
