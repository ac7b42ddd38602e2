import { createSubscriptionSchema, USER_MESSAGES } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi } from '../../../tests/support/route-api.js';

// The billing routes over HTTP on the real api and database, in billing's test mode (no Stripe keys).
describe('billing routes', () => {
  const api = withRouteApi();

  it('shows the plans to anyone', async () => {
    const plans = await api.anonymous().get<{ plans: Array<{ id: string; stripePriceId: string }>; testMode: boolean }>('/api/plans');
    expect(plans).toMatchObject({ status: 200, body: { testMode: true } });
    expect(plans.body.plans.length).toBeGreaterThan(0);
  });

  it.each([
    ['POST', '/api/create-subscription'],
    ['GET', '/api/billing'],
    ['POST', '/api/billing/cancel'],
    ['POST', '/api/billing/portal'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
  });

  it('subscribes a confirmed address only, to a plan at its own price', async () => {
    const { body } = await api.anonymous().get<{ plans: Array<{ id: string; stripePriceId: string }> }>('/api/plans');
    const plan = body.plans.find((p) => p.stripePriceId)!;
    const user = await api.signedIn();
    for (const form of [{}, { planId: plan.id }, { planId: '', stripePriceId: plan.stripePriceId }]) {
      expect(await user.post('/api/create-subscription', form)).toEqual(expect.objectContaining(invalid(createSubscriptionSchema, form)));
    }
    // The form is checked before the address: an unconfirmed caller with a broken form hears of the form.
    const unconfirmed = await api.signedIn('unconfirmed');
    expect((await unconfirmed.post('/api/create-subscription', {})).body).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(await unconfirmed.post('/api/create-subscription', { planId: plan.id, stripePriceId: plan.stripePriceId })).toEqual(
      expect.objectContaining({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: USER_MESSAGES.confirmBeforeSubscribing } }),
    );
    expect(await user.post('/api/create-subscription', { planId: plan.id, stripePriceId: 'price_other' })).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(await user.post('/api/create-subscription', { planId: plan.id, stripePriceId: plan.stripePriceId })).toMatchObject({ status: 200, body: { testMode: true } });
  });

  it('tells a subscriber their billing', async () => {
    const subscriber = await api.signedIn('subscriber');
    expect(await subscriber.get('/api/billing')).toMatchObject({ status: 200 });
  });
});
