import { PLANS, type Catalogue } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { billingKeys } from '../lib/billing-api.js';

/** The plans with the price ids they are sold at; the built-in catalogue until the api answers (`settled`: it answered or failed). */
export function usePlans(): { catalogue: Catalogue; loaded: boolean; settled: boolean } {
  const query = useQuery<Catalogue | null>({ queryKey: billingKeys.plans });
  return {
    catalogue: query.data ?? { plans: PLANS.map((p) => ({ ...p, stripePriceId: null })), publishableKey: null, testMode: false },
    loaded: Boolean(query.data),
    settled: !query.isPending,
  };
}

export const PAYMENT_METHOD_TYPES = ['card', 'apple_pay', 'google_pay'] as const;
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHOD_TYPES)[number], string> = {
  card: 'Credit and debit cards',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
};
