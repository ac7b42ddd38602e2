import { PLANS } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { planAction } from './plan-choice.js';

const plan = (id: string) => PLANS.find((p) => p.id === id)!;

describe('plan card buttons', () => {
  it('say Upgrade to {plan} to anyone without a plan (spec §2)', () => {
    expect(PLANS.map((p) => planAction(p, null).label)).toEqual(['Upgrade to Starter', 'Upgrade to Professional', 'Upgrade to Business', 'Upgrade to Enterprise']);
  });

  it('mark a subscriber’s plan, offer larger ones as upgrades and smaller ones as a switch', () => {
    expect(PLANS.map((p) => planAction(p, plan('business')))).toEqual([
      { kind: 'switch', label: 'Switch to Starter' },
      { kind: 'switch', label: 'Switch to Professional' },
      { kind: 'current', label: 'Your current plan' },
      { kind: 'upgrade', label: 'Upgrade to Enterprise' },
    ]);
  });
});
