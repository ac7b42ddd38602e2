import { FREE_DAILY_LIMIT, planById, type WorkspaceUsage } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { subscribeWorkspace } from '../../../tests/support/accounts.js';
import { withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';

const USAGE = '/api/workspaces/current/usage';

// The dashboard's use per member over HTTP on the real api and database.
describe('/api/workspaces/current/usage', () => {
  const api = withRouteApi();

  const actIn = async (caller: Caller, workspaceId: string) => {
    expect((await caller.put('/api/workspaces/current', { workspaceId })).status).toBe(200);
  };

  async function team(subscribed: boolean) {
    const owner = await api.signedIn();
    const accountant = await api.signedIn();
    const member = await api.signedIn();
    const id = await teamWorkspace(api.runtime.db, owner.userId!, [
      { userId: accountant.userId!, role: 'accountant' },
      { userId: member.userId!, role: 'member' },
    ]);
    if (subscribed) await subscribeWorkspace(api.runtime.db, id, 'professional');
    for (const caller of [owner, accountant, member]) await actIn(caller, id);
    return { owner, accountant, member };
  }

  it('answers signed-in callers only', async () => {
    expect(await api.anonymous().get(USAGE)).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
  });

  it('shows the owner and the accountant every member’s share of the workspace’s plan, and a member their own', async () => {
    const { owner, accountant, member } = await team(true);
    await api.receipt(owner);
    for (let i = 0; i < 2; i++) await api.receipt(member);
    const limit = planById('professional')!.receiptLimit;
    for (const reader of [owner, accountant]) {
      const { status, body } = await reader.get<WorkspaceUsage>(USAGE);
      expect(status).toBe(200);
      expect(body).toMatchObject({ quota: { used: 3, limit }, shared: true, everyone: true });
      expect(new Map(body.members.map((m) => [m.userId, [m.role, m.units]]))).toEqual(
        new Map([
          [owner.userId, ['owner', 1]],
          [accountant.userId, ['accountant', 0]],
          [member.userId, ['member', 2]],
        ]),
      );
    }
    const own = await member.get<WorkspaceUsage>(USAGE);
    expect(own.body).toMatchObject({ quota: { used: 3, limit }, shared: true, everyone: false });
    expect(own.body.members).toEqual([{ userId: member.userId, email: member.email, username: 'user', role: 'member', units: 2 }]);
  });

  it('keeps each member on their own free allowance in a workspace without a plan', async () => {
    const { owner, member } = await team(false);
    await api.receipt(member);
    expect((await member.get<WorkspaceUsage>(USAGE)).body).toMatchObject({ quota: { used: 1, limit: FREE_DAILY_LIMIT }, shared: false, members: [{ userId: member.userId, units: 1 }] });
    const everyone = (await owner.get<WorkspaceUsage>(USAGE)).body;
    expect(everyone).toMatchObject({ quota: { used: 0, limit: FREE_DAILY_LIMIT }, shared: false, everyone: true });
    expect(everyone.members.find((m) => m.userId === member.userId)).toMatchObject({ units: 1 });
  });
});
