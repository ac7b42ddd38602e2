import type { Plan } from '@receipts/common';

export type PlanAction = { kind: 'current'; label: string } | { kind: 'upgrade' | 'switch'; label: string };

/**
 * What a plan card's button says: spec §2's "Upgrade to {plan}" for anyone without a plan and
 * for a larger plan; a subscriber's own plan is marked current, a smaller one is a switch.
 */
export function planAction(plan: Pick<Plan, 'id' | 'name' | 'price'>, current: Pick<Plan, 'id' | 'price'> | null): PlanAction {
  if (!current || plan.price > current.price) return { kind: 'upgrade', label: `Upgrade to ${plan.name}` };
  if (plan.id === current.id) return { kind: 'current', label: 'Your current plan' };
  return { kind: 'switch', label: `Switch to ${plan.name}` };
}
