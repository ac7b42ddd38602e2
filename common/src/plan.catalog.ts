import { z } from 'zod';

export const PLAN_IDS = ['starter', 'professional', 'business', 'enterprise'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  /** USD per month. */
  price: z.number(),
  /** Receipts per billing month. */
  receiptLimit: z.number().int(),
  features: z.array(z.string()),
  popular: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

/**
 * What every plan gives. The plans differ by their monthly receipts only: spec §9's "Advanced OCR
 * accuracy", "Bulk processing" and "Priority support" are left out, for nothing is built that a
 * plan would change (every receipt is read the same way, anyone drops any number of files or a
 * whole folder at once, and there is no support desk to put anyone first). Times are measured,
 * not promised: the pricing page says them (processing-times.rules.ts).
 */
const base = ['Express lane, ahead of the standard queue', 'Excel, QuickBooks, Xero, DATEV and more exports', 'E-mail notifications'];

/** The plans of spec §9; Stripe price ids come from configuration. */
export const PLANS: readonly Plan[] = [
  { id: 'starter', name: 'Starter', price: 4.95, receiptLimit: 100, features: [...base, '100 receipts per month'], popular: false },
  {
    id: 'professional',
    name: 'Professional',
    price: 12.95,
    receiptLimit: 500,
    features: [...base, '500 receipts per month'],
    popular: false,
  },
  {
    id: 'business',
    name: 'Business',
    price: 14.95,
    receiptLimit: 1000,
    features: [...base, '1,000 receipts per month'],
    popular: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 29.99,
    receiptLimit: 10000,
    features: [...base, '10,000 receipts per month'],
    popular: false,
  },
];

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export const userProfileSchema = z.object({
  username: z.string(),
  email: z.string(),
  userType: z.enum(['user', 'admin']),
  /** Not in the spec: whether the address is confirmed (the web's banner and resend button). */
  emailVerified: z.boolean(),
  subscriptionStatus: z.string().optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Signing in, confirming the address and moving the account to another answer the words for the person and the profile as it now stands. */
export const profileAnswerSchema = z.object({ message: z.string(), user: userProfileSchema });
export type ProfileAnswer = z.infer<typeof profileAnswerSchema>;

/** GET /api/user/subscription (spec §7). */
export const subscriptionViewSchema = z.object({
  planName: z.string(),
  status: z.string(),
  isActive: z.boolean(),
  currentPeriodEnd: z.string().nullable(),
  receiptLimit: z.number().int(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const createSubscriptionSchema = z.object({
  stripePriceId: z.string().min(1, 'stripePriceId is required'),
  planId: z.string().min(1, 'planId is required'),
});
