import { createSubscriptionSchema, USER_MESSAGES, WORKSPACE_MESSAGES } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { pngFile } from '../../../tests/support/upload-stack.js';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';

// The billing routes over HTTP on the real api and database, in billing's test mode (no Stripe keys).
describe('billing routes', () => {
  const api = withRouteApi();

  const plan = async () => {
    const { body } = await api.anonymous().get<{ plans: Array<{ id: string; stripePriceId: string }> }>('/api/plans');
    return body.plans.find((p) => p.id === 'starter')!;
  };
  const actIn = async (caller: Caller, workspaceId: string) => {
    expect((await caller.put('/api/workspaces/current', { workspaceId })).status).toBe(200);
  };
  const upload = (caller: Caller) => {
    const form = new FormData();
    const file = pngFile();
    form.append('file', new Blob([new Uint8Array(file.buffer)]), file.originalname);
    return caller.post<{ lane: string }>('/api/ocr', form);
  };

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
    const chosen = await plan();
    const user = await api.signedIn();
    for (const form of [{}, { planId: chosen.id }, { planId: '', stripePriceId: chosen.stripePriceId }]) {
      expect(await user.post('/api/create-subscription', form)).toEqual(expect.objectContaining(invalid(createSubscriptionSchema, form)));
    }
    // The form is checked before the address: an unconfirmed caller with a broken form hears of the form.
    const unconfirmed = await api.signedIn('unconfirmed');
    expect((await unconfirmed.post('/api/create-subscription', {})).body).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(await unconfirmed.post('/api/create-subscription', { planId: chosen.id, stripePriceId: chosen.stripePriceId })).toEqual(
      expect.objectContaining({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: USER_MESSAGES.confirmBeforeSubscribing } }),
    );
    expect(await user.post('/api/create-subscription', { planId: chosen.id, stripePriceId: 'price_other' })).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(await user.post('/api/create-subscription', { planId: chosen.id, stripePriceId: chosen.stripePriceId })).toMatchObject({ status: 200, body: { testMode: true } });
  });

  it('tells a subscriber their billing', async () => {
    const subscriber = await api.signedIn('subscriber');
    expect(await subscriber.get('/api/billing')).toMatchObject({ status: 200, body: { plan: { id: 'business' }, status: 'active' } });
  });

  it('lets only a team workspace’s owner subscribe it, read its billing and cancel; the plan is the workspace’s, not the owner’s', async () => {
    const chosen = await plan();
    const owner = await api.signedIn();
    const others = { admin: await api.signedIn(), accountant: await api.signedIn(), member: await api.signedIn() };
    const team = await teamWorkspace(
      api.runtime.db,
      owner.userId!,
      Object.entries(others).map(([role, caller]) => ({ userId: caller.userId!, role: role as 'admin' | 'accountant' | 'member' })),
    );
    for (const caller of [owner, ...Object.values(others)]) await actIn(caller, team);

    const forbidden = { status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } };
    for (const caller of Object.values(others)) {
      expect(await caller.post('/api/create-subscription', { planId: chosen.id, stripePriceId: chosen.stripePriceId })).toMatchObject(forbidden);
      expect(await caller.get('/api/billing')).toMatchObject(forbidden);
      expect(await caller.post('/api/billing/cancel', {})).toMatchObject(forbidden);
      expect(await caller.post('/api/billing/portal', {})).toMatchObject(forbidden);
    }

    expect(await owner.post('/api/create-subscription', { planId: chosen.id, stripePriceId: chosen.stripePriceId })).toMatchObject({ status: 200, body: { testMode: true } });
    expect(await owner.get('/api/billing')).toMatchObject({ status: 200, body: { plan: { id: 'starter' }, status: 'active' } });
    // Every member sees the workspace's plan and shares its quota and lane.
    for (const caller of Object.values(others)) {
      expect((await caller.get('/api/user/subscription')).body).toMatchObject({ planName: 'Starter', isActive: true, receiptLimit: 100 });
      expect((await caller.get('/api/user/quota')).body).toMatchObject({ limit: 100 });
    }
    expect(await upload(others.member)).toMatchObject({ status: 202, body: { lane: 'express' } });
    expect((await owner.get('/api/user/quota')).body).toMatchObject({ used: 1, limit: 100 });

    // The owner's own workspace has no plan; nor have the members' own.
    await actIn(owner, owner.userId!);
    expect((await owner.get('/api/user/subscription')).body).toMatchObject({ planName: 'Free', isActive: false });
    expect(await owner.get('/api/billing')).toMatchObject({ status: 200, body: { plan: null, status: 'free' } });
    await actIn(others.member, others.member.userId!);
    expect((await others.member.get('/api/user/quota')).body).toMatchObject({ used: 0, limit: 5 });
    expect(await upload(others.member)).toMatchObject({ status: 202, body: { lane: 'standard' } });

    await actIn(owner, team);
    expect(await owner.post('/api/billing/cancel', {})).toMatchObject({ status: 200, body: { cancelAtPeriodEnd: true } });
  });

  it('says there is nothing to cancel in a workspace without a plan', async () => {
    const user = await api.signedIn();
    expect(await user.post('/api/billing/cancel', {})).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });
});
