import { describe, expect, it } from 'vitest';
import { PLANS } from './plan.catalog.js';

describe('the plans', () => {
  it('say the monthly receipts each one’s limit holds, and otherwise the same features: nothing else differs by plan', () => {
    const [first, ...rest] = PLANS;
    const shared = (features: readonly string[]) => features.filter((f) => !/receipts per month$/.test(f));
    for (const plan of PLANS) {
      expect(plan.features.filter((f) => /receipts per month$/.test(f))).toEqual([`${plan.receiptLimit.toLocaleString('en-US')} receipts per month`]);
    }
    for (const plan of rest) expect(shared(plan.features)).toEqual(shared(first!.features));
  });

  it('promise no processing time: times are measured and said where they are shown', () => {
    for (const plan of PLANS) for (const feature of plan.features) expect(feature).not.toMatch(/\d+\s*(s|sec|min|minutes?|h|hours?)\b/);
  });
});
