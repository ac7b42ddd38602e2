import { planById, type Plan } from '@receipts/common';

/** Spec §5: subscribe needs a plan and a price, and a plan id we know. */
export function checkoutPlan(planId: string | null, price: string | null): Plan | null {
  if (!planId || !price) return null;
  return planById(planId) ?? null;
}

/** Spec §4: an error that means "sign in first". */
export function isAuthError(message: string): boolean {
  return /401|Authentication required|Invalid or expired session/.test(message);
}

/** Next charge: 30 days from today (spec §9). */
export function nextChargeDate(now: Date = new Date()): Date {
  return new Date(now.getTime() + 30 * 24 * 3600_000);
}

/** The plan a /success?plan= link names: by id or by name. */
export function planFromParam(param: string | null, plans: readonly Plan[]): Plan | null {
  if (!param) return null;
  const p = param.trim().toLowerCase();
  return plans.find((plan) => plan.id === p || plan.name.toLowerCase() === p) ?? null;
}
