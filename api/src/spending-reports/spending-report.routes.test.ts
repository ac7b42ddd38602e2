import { spendingReportQuerySchema, WORKSPACE_HEADER, WORKSPACE_MESSAGES, type SpendingReport } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';

const REPORTS = '/api/workspaces/current/reports';

// The workspace's spending report over HTTP on the real api and database, for each role.
describe('/api/workspaces/current/reports', () => {
  const api = withRouteApi();

  const actIn = async (caller: Caller, workspaceId: string) => {
    expect((await caller.put('/api/workspaces/current', { workspaceId })).status).toBe(200);
  };

  async function team() {
    const owner = await api.signedIn();
    const admin = await api.signedIn();
    const accountant = await api.signedIn();
    const member = await api.signedIn();
    const id = await teamWorkspace(api.runtime.db, owner.userId!, [
      { userId: admin.userId!, role: 'admin' },
      { userId: accountant.userId!, role: 'accountant' },
      { userId: member.userId!, role: 'member' },
    ]);
    for (const caller of [owner, admin, accountant, member]) await actIn(caller, id);
    return { id, owner, admin, accountant, member };
  }

  it('answers signed-in callers only', async () => {
    expect(await api.anonymous().get(REPORTS)).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
  });

  it('shows owners, admins and accountants the team’s spending per member, and refuses members', async () => {
    const { id, owner, admin, accountant, member } = await team();
    await api.receipt(owner, { currency: 'EUR', merchantName: 'Sunrise Bakery', date: '2024-03-01', category: 'grocery', total: 12 });
    await api.receipt(member, { currency: 'EUR', merchantName: 'Shell', date: '2024-04-02', category: 'gas', total: 30 });
    // Someone else's receipts are not the team's.
    const outsider = await api.signedIn();
    await api.receipt(outsider, { currency: 'EUR', merchantName: 'Elsewhere', date: '2024-04-03', category: 'other', total: 999 });

    for (const reader of [owner, admin, accountant]) {
      const { status, body } = await reader.get<SpendingReport>(REPORTS);
      expect(status).toBe(200);
      expect(body.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([['EUR', 42, 2]]);
      expect(body.currencies[0]!.members).toEqual([
        { userId: member.userId, email: member.email, total: 30, receipts: 1 },
        { userId: owner.userId, email: owner.email, total: 12, receipts: 1 },
      ]);
      expect(body.roster.map((m) => m.userId).sort()).toEqual([owner, admin, accountant, member].map((c) => c.userId).sort());
    }
    expect(await member.get(REPORTS)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } });
    // Someone outside the team cannot name it.
    expect(await outsider.send('GET', REPORTS, undefined, { [WORKSPACE_HEADER]: id })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });

  it('takes a period and a member, and refuses what is not one', async () => {
    const { owner, member } = await team();
    await api.receipt(member, { currency: 'USD', merchantName: 'Staples', date: '2024-01-15', category: 'retail', total: 20 });
    await api.receipt(member, { currency: 'USD', merchantName: 'Staples', date: '2024-02-15', category: 'retail', total: 5 });
    await api.receipt(owner, { currency: 'USD', merchantName: 'Office Depot', date: '2024-02-20', category: 'retail', total: 8 });
    const february = await owner.get<SpendingReport>(`${REPORTS}?from=2024-02-01&to=2024-02-29`);
    expect(february.body.currencies.map((c) => [c.currency, c.total, c.months.map((m) => m.month)])).toEqual([['USD', 13, ['2024-02']]]);
    const theirs = await owner.get<SpendingReport>(`${REPORTS}?member=${member.userId}`);
    expect(theirs.body.currencies[0]).toMatchObject({ total: 25, members: [{ userId: member.userId, total: 25 }], merchants: [{ merchant: 'Staples', total: 25 }] });
    for (const query of [{ member: 'someone' }, { from: '1 Feb 2024' }] as Array<Record<string, string>>) {
      expect(await owner.get(`${REPORTS}?${new URLSearchParams(query)}`)).toEqual(expect.objectContaining(invalid(spendingReportQuerySchema, query)));
    }
  });

  it('reports an account’s own workspace to it', async () => {
    const user = await api.signedIn();
    await api.receipt(user, { currency: 'GBP', merchantName: 'Tesco', date: '2024-05-05', category: 'grocery', total: 9.5 });
    const { status, body } = await user.get<SpendingReport>(REPORTS);
    expect(status).toBe(200);
    expect(body.currencies[0]).toMatchObject({ currency: 'GBP', total: 9.5, members: [{ userId: user.userId, total: 9.5 }] });
    expect(body.roster).toEqual([{ userId: user.userId, email: user.email, username: 'user', role: 'owner' }]);
  });
});
