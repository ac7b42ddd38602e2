import type { BillingOverview, BillingPortal, SubscriptionSetup } from '@receipts/common';
import { apiPost } from './api.js';

/** Reads of plans and billing; each key is the url the shared query function reads (spec §7). */
export const billingKeys = {
  plans: ['/api/plans'] as const,
  billing: ['/api/billing'] as const,
};

export const cancelSubscription = () => apiPost<BillingOverview>('/api/billing/cancel');
export const openBillingPortal = () => apiPost<BillingPortal>('/api/billing/portal');
export const createSubscription = (input: { stripePriceId: string; planId: string }) => apiPost<SubscriptionSetup>('/api/create-subscription', input);
