import type { Plan } from '@receipts/common';
import { apiPost } from './api.js';

export interface CataloguePlan extends Plan {
  stripePriceId: string | null;
}
export interface Catalogue {
  plans: CataloguePlan[];
  publishableKey: string | null;
  testMode: boolean;
}

export interface BillingOverview {
  plan: { id: string; name: string; price: number; receiptLimit: number } | null;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  nextCharge: { date: string; amount: number; currency: string } | null;
  invoices: Array<{ id: string; amount: number; currency: string; status: string; url: string | null; date: string }>;
  testMode: boolean;
}

export type SubscriptionSetup = { clientSecret?: string; testMode?: boolean; message?: string };

/** Reads of plans and billing; each key is the url the shared query function reads (spec §7). */
export const billingKeys = {
  plans: ['/api/plans'] as const,
  billing: ['/api/billing'] as const,
};

export const cancelSubscription = () => apiPost<BillingOverview>('/api/billing/cancel');
export const openBillingPortal = () => apiPost<{ url: string }>('/api/billing/portal');
export const createSubscription = (input: { stripePriceId: string; planId: string }) => apiPost<SubscriptionSetup>('/api/create-subscription', input);
