import { AUDIT_MESSAGES, auditQuerySchema, auditSummary, DEFAULT_DATEV_SETTINGS, issueFlag, WORKSPACE_HEADER, WORKSPACE_MESSAGES, type AuditPage } from '@receipts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';

const TRAIL = '/api/workspaces/current/audit';

// The audit trail over HTTP on the real api and database: what the routes of each act record, and who may read it.
describe('/api/workspaces/current/audit', () => {
  const api = withRouteApi();
  let owner: Caller;
  let admin: Caller;
  let accountant: Caller;
  let member: Caller;
  let workspace: string;

  /** The session acts in `workspaceId` from now on, as the switcher does it. */
  async function switchTo(caller: Caller, workspaceId: string): Promise<void> {
    const switched = await caller.put('/api/workspaces/current', { workspaceId });
    if (switched.status !== 200) throw new Error(`switch: ${switched.status} ${JSON.stringify(switched.body)}`);
  }

  /** A team workspace of fresh accounts in every role, each acting in it. */
  async function team(name: string) {
    const people = { owner: await api.signedIn(), admin: await api.signedIn(), accountant: await api.signedIn(), member: await api.signedIn() };
    const id = await teamWorkspace(
      api.runtime.db,
      people.owner.userId!,
      (['admin', 'accountant', 'member'] as const).map((role) => ({ userId: people[role].userId!, role })),
      name,
    );
    for (const caller of Object.values(people)) await switchTo(caller, id);
    return { id, ...people };
  }

  const trail = (caller: Caller, query: Record<string, string> = {}) => caller.get<AuditPage>(`${TRAIL}?${new URLSearchParams(query)}`);
  /** The trail as the audit page shows it: who, what, newest first. */
  const read = async (caller: Caller, query: Record<string, string> = {}) => (await trail(caller, query)).body.events.map((e) => [e.actor, auditSummary(e)]);

  beforeAll(async () => {
    ({ id: workspace, owner, admin, accountant, member } = await team('Acme'));
  }, 120_000);

  it('is read by the workspace’s owner and admins; accountants and members are refused, visitors told to sign in, tokens closed out', async () => {
    expect(await api.anonymous().get(TRAIL)).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
    for (const reader of [owner, admin]) expect(await trail(reader)).toMatchObject({ status: 200, body: { events: [], next: null } });
    for (const refused of [accountant, member]) {
      expect(await trail(refused)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } });
    }
    const { token } = await api.token(owner);
    expect((await api.bearer(token).get(TRAIL)).status).toBe(403);
  });

  it('records who uploaded, corrected, accepted, reopened, exported, changed a setting, renamed and deleted, newest first', async () => {
    const issue = 'Total does not match the items';
    const receiptId = await api.receipt(member, { merchantName: 'Corner Shop', date: '2024-05-01', total: 12.5, currency: 'EUR', issues: [issueFlag('legacy', { text: issue })], valid: false });
    const { uploadId, filename } = (await member.get(`/api/receipts/${receiptId}`)).body as { uploadId: string; filename: string };
    expect((await owner.post(`/api/receipts/${receiptId}/issues/accept`, { issue })).status).toBe(200);
    expect((await admin.post(`/api/receipts/${receiptId}/issues/reopen`, { issue })).status).toBe(200);
    expect((await owner.patch(`/api/receipts/${receiptId}`, { merchantName: 'Corner Store', total: 13 })).status).toBe(200);
    expect((await accountant.get('/api/export?format=xlsx')).status).toBe(200);
    expect((await admin.post('/api/user/categories', { name: 'Travel', datevAccount: '4670' })).status).toBe(201);
    expect((await admin.patch('/api/user/categories/Travel', { name: 'Trips' })).status).toBe(200);
    expect((await owner.put('/api/user/datev-settings', { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4711 })).status).toBe(200);
    // The correction taught the workspace a rule; editing and forgetting it are settings too.
    const rule = ((await owner.get('/api/user/rules')).body.rules as Array<{ id: string; kind: string }>).find((r) => r.kind === 'merchant')!;
    expect((await owner.patch(`/api/user/rules/${rule.id}`, { value: 'Corner Store Ltd' })).status).toBe(200);
    expect((await owner.delete(`/api/user/rules/${rule.id}`)).status).toBe(204);
    expect((await admin.patch('/api/workspaces/current', { name: 'Acme GmbH' })).status).toBe(200);
    expect((await member.delete(`/api/receipts/${receiptId}`)).status).toBe(204);

    expect(await read(owner)).toEqual([
      [member.email, `Deleted ${filename}`],
      [admin.email, 'Renamed the workspace from “Acme” to “Acme GmbH”'],
      [owner.email, 'Forgot the merchant-name rule for “Corner Shop”'],
      [owner.email, 'Changed the merchant-name rule for “Corner Shop” to “Corner Store Ltd”'],
      [owner.email, 'Changed the DATEV settings: Beraternummer'],
      [admin.email, 'Changed the category “Travel”: renamed it to “Trips”'],
      [admin.email, 'Added the category “Travel” (DATEV account 4670)'],
      [accountant.email, 'Exported 1 receipt (XLSX)'],
      [owner.email, `Corrected the merchant and total of ${filename}`],
      [admin.email, `Took back the acceptance of “${issue}” on ${filename}`],
      [owner.email, `Accepted “${issue}” on ${filename}`],
      [member.email, `Uploaded ${filename}`],
    ]);
    // Every act on the receipt names it by its upload, from upload to deletion.
    const onReceipt = (await trail(owner, { limit: '200' })).body.events.filter((e) => e.action.startsWith('receipt.'));
    expect(new Set(onReceipt.map((e) => e.subject))).toEqual(new Set([uploadId]));
    // An admin reads the same trail.
    expect(await read(admin)).toEqual(await read(owner));
  });

  it('starts a new workspace’s trail with its making, by whoever made it', async () => {
    const maker = await api.signedIn();
    const made = await maker.post('/api/workspaces', { name: 'Side project' });
    expect(made.status).toBe(201);
    await switchTo(maker, made.body.id as string);
    expect(await read(maker)).toEqual([[maker.email, 'Created the workspace “Side project”']]);
  });

  it('records accepting a kind of flag as an acceptance on each receipt that had it', async () => {
    const { owner: boss, member: clerk } = await team('By kind');
    const kind = 'Total does not match the items';
    const flagged = () => api.receipt(clerk, { merchantName: 'Corner Shop', total: 5, issues: [issueFlag('legacy', { text: kind })], valid: false });
    await flagged();
    await flagged();
    await api.receipt(clerk);
    expect(await boss.post('/api/receipts/flags/accept', { kind })).toMatchObject({ status: 200, body: { receipts: 2 } });
    expect(await read(boss, { action: 'receipt.accepted' })).toEqual([
      [boss.email, `Accepted “${kind}” on receipt.png`],
      [boss.email, `Accepted “${kind}” on receipt.png`],
    ]);
  });

  it('pages with `next`, filters by action and by member, and refuses a cursor or filter it does not know', async () => {
    const { owner: boss, member: clerk } = await team('Paging');
    for (const name of ['A', 'B', 'C']) expect((await boss.post('/api/user/categories', { name })).status).toBe(201);
    await api.receipt(clerk);

    const first = await trail(boss, { limit: '3' });
    expect(first.body.events).toHaveLength(3);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await trail(boss, { limit: '3', cursor: first.body.next! });
    expect(second.body).toMatchObject({ next: null });
    expect(second.body.events.map((e) => auditSummary(e))).toEqual(['Added the category “A”']);
    expect(first.body.actors.map((a) => a.id).sort()).toEqual([boss.userId, clerk.userId].sort());

    expect((await trail(boss, { action: 'receipt.uploaded' })).body.events.map((e) => e.actor)).toEqual([clerk.email]);
    expect((await trail(boss, { actor: clerk.userId! })).body.events.map((e) => e.action)).toEqual(['receipt.uploaded']);
    expect((await trail(boss, { actor: boss.userId!, action: 'settings.changed', limit: '2' })).body.events).toHaveLength(2);

    expect(await trail(boss, { cursor: 'bm90LWEtY3Vyc29y' })).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED', message: AUDIT_MESSAGES.cursorInvalid } });
    for (const query of [{ action: 'receipt.stolen' }, { actor: '42' }, { limit: '0' }, { limit: '1000' }] as Array<Record<string, string>>) {
      expect(await trail(boss, query)).toEqual(expect.objectContaining(invalid(auditQuerySchema, query)));
    }
  });

  it('never shows another workspace’s acts, and one cannot read a workspace one is not in', async () => {
    const stranger = await api.signedIn();
    expect((await stranger.post('/api/user/categories', { name: 'Secret' })).status).toBe(201);
    await api.receipt(stranger);
    // The stranger's own workspace has their acts and nothing of Acme's.
    expect((await read(stranger)).map(([actor]) => actor)).toEqual([stranger.email, stranger.email]);
    expect(JSON.stringify((await trail(owner, { limit: '200' })).body)).not.toContain(stranger.email!);
    // Acme's is not theirs to read, whichever way they ask.
    expect(await stranger.put('/api/workspaces/current', { workspaceId: workspace })).toMatchObject({ status: 404 });
    expect(await stranger.send('GET', TRAIL, undefined, { [WORKSPACE_HEADER]: workspace })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
    // A member's acts in their own workspace stay there.
    const uploadsInAcme = async () => (await trail(owner, { actor: member.userId!, action: 'receipt.uploaded' })).body.events.length;
    const before = await uploadsInAcme();
    await switchTo(member, member.userId!);
    await api.receipt(member);
    expect(await uploadsInAcme()).toBe(before);
    expect((await read(member)).map(([actor]) => actor)).toEqual([member.email]);
    await switchTo(member, workspace);
  });
});
