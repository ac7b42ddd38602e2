import { changeMemberRoleSchema, MEMBERSHIP_MESSAGES, memberListSchema, WORKSPACE_MESSAGES, type MemberList, type WorkspaceList } from '@receipts/common';
import { AuditRepository, IntakeRepository, schema } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi } from '../../../tests/support/route-api.js';
import { openTeam } from '../../../tests/support/teams.js';

const unauthenticated = { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } };
const roleForbids = { status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } };
const ownerUntouchable = { status: 403, body: { error: 'FORBIDDEN', message: MEMBERSHIP_MESSAGES.ownerUntouchable } };
const memberNotFound = { status: 404, body: { error: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.memberNotFound } };
const SOMEONE = '00000000-0000-4000-8000-000000000000';

// /api/workspaces/current/{members,leave,ownership} over HTTP on the real api and database.
describe('/api/workspaces/current members routes', () => {
  const api = withRouteApi();
  const rolesOf = async (workspaceId: string) =>
    Object.fromEntries(
      (await api.runtime.db.select().from(schema.workspaceMembers).where(eq(schema.workspaceMembers.workspaceId, workspaceId))).map((m) => [m.userId, m.role]),
    );
  const trail = async (workspaceId: string) => (await new AuditRepository(api.runtime.db).page(workspaceId, { limit: 50 })).events;

  it.each([
    ['GET', '/api/workspaces/current/members'],
    ['PATCH', `/api/workspaces/current/members/${SOMEONE}`],
    ['DELETE', `/api/workspaces/current/members/${SOMEONE}`],
    ['POST', '/api/workspaces/current/leave'],
    ['POST', '/api/workspaces/current/ownership'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject(unauthenticated);
  });

  it('lists the members, owner first, to every role', async () => {
    const team = await openTeam(api);
    for (const caller of [team.owner, team.member.admin, team.member.accountant, team.member.member]) {
      const listed = await caller.get<MemberList>('/api/workspaces/current/members');
      expect(listed.status).toBe(200);
      expect(memberListSchema.parse(listed.body).members.map((m) => [m.userId, m.role])).toEqual([
        [team.owner.userId, 'owner'],
        [team.member.admin.userId, 'admin'],
        [team.member.accountant.userId, 'accountant'],
        [team.member.member.userId, 'member'],
      ]);
    }
    expect(listed(await (await api.signedIn()).get<MemberList>('/api/workspaces/current/members'))).toEqual(['owner']);
  });

  it('changes a member’s role for owners and admins, recorded in the audit trail', async () => {
    const team = await openTeam(api);
    const url = `/api/workspaces/current/members/${team.member.member.userId}`;
    expect(await team.member.member.patch(`/api/workspaces/current/members/${team.member.accountant.userId}`, { role: 'admin' })).toMatchObject(roleForbids);
    expect(await team.member.member.patch(url, { role: 'admin' })).toMatchObject(roleForbids);
    expect(await team.member.admin.patch(url, { role: 'accountant' })).toMatchObject({ status: 200, body: { userId: team.member.member.userId, role: 'accountant' } });
    expect(await team.owner.patch(url, { role: 'admin' })).toMatchObject({ status: 200, body: { role: 'admin' } });
    expect(await team.member.accountant.patch(url, { role: 'member' })).toMatchObject(roleForbids);
    expect((await rolesOf(team.id))[team.member.member.userId!]).toBe('admin');
    const changes = (await trail(team.id)).filter((e) => e.action === 'member.role-changed');
    expect(changes.map((e) => [e.actor, e.subject, e.detail.from, e.detail.to])).toEqual([
      [team.owner.email, team.member.member.email, 'accountant', 'admin'],
      [team.member.admin.email, team.member.member.email, 'member', 'accountant'],
    ]);
  });

  it('refuses the owner role, other fields and roles it does not know (no mass assignment)', async () => {
    const team = await openTeam(api);
    const url = `/api/workspaces/current/members/${team.member.member.userId}`;
    for (const body of [{ role: 'owner' }, { role: 'admin', userId: team.owner.userId }, { role: 'admin', workspaceId: SOMEONE }, { role: 'boss' }, {}, { role: ['admin'] }]) {
      expect(await team.owner.patch(url, body)).toMatchObject(invalid(changeMemberRoleSchema, body));
    }
    expect(await rolesOf(team.id)).toMatchObject({ [team.owner.userId!]: 'owner', [team.member.member.userId!]: 'member' });
  });

  it('lets nobody change or remove the owner this way: an admin cannot demote or remove them, nor the owner themselves', async () => {
    const team = await openTeam(api);
    const owner = `/api/workspaces/current/members/${team.owner.userId}`;
    expect(await team.member.admin.patch(owner, { role: 'member' })).toMatchObject(ownerUntouchable);
    expect(await team.member.admin.delete(owner)).toMatchObject(ownerUntouchable);
    expect(await team.owner.patch(owner, { role: 'admin' })).toMatchObject(ownerUntouchable);
    expect(await team.owner.delete(owner)).toMatchObject(ownerUntouchable);
    expect((await rolesOf(team.id))[team.owner.userId!]).toBe('owner');
  });

  it('answers 404 for someone who is not a member, and 400 for an id that is none', async () => {
    const team = await openTeam(api);
    const stranger = await api.signedIn();
    expect(await team.owner.patch(`/api/workspaces/current/members/${stranger.userId}`, { role: 'admin' })).toMatchObject(memberNotFound);
    expect(await team.owner.delete(`/api/workspaces/current/members/${stranger.userId}`)).toMatchObject(memberNotFound);
    expect((await team.owner.delete('/api/workspaces/current/members/nobody')).status).toBe(400);
    // The stranger's own workspace is not theirs to manage through this team.
    expect((await rolesOf(stranger.userId!))[stranger.userId!]).toBe('owner');
  });

  it('removes a member: their receipts stay, their intake address into it goes, their session falls back to their own workspace', async () => {
    const team = await openTeam(api);
    const { member } = team.member;
    await api.receipt(member);
    const intake = new IntakeRepository(api.runtime.db);
    await intake.replace(member.userId!, team.id, `t${Date.now()}`);
    await intake.replace(member.userId!, member.userId!, `p${Date.now()}`);
    expect(await team.member.accountant.delete(`/api/workspaces/current/members/${member.userId}`)).toMatchObject(roleForbids);

    expect(await team.member.admin.delete(`/api/workspaces/current/members/${member.userId}`)).toMatchObject({ status: 204 });
    expect(await rolesOf(team.id)).not.toHaveProperty(member.userId!);
    expect(await intake.tokenOf(member.userId!, team.id)).toBeNull();
    expect(await intake.tokenOf(member.userId!, member.userId!)).not.toBeNull();
    expect((await team.owner.get('/api/uploads')).body).toHaveLength(1);
    expect(await member.get<WorkspaceList>('/api/workspaces')).toMatchObject({ body: { currentId: member.userId, workspaces: [{ id: member.userId }] } });
    expect((await member.get('/api/uploads')).body).toHaveLength(0);
    const [removed] = (await trail(team.id)).filter((e) => e.action === 'member.removed');
    expect(removed).toMatchObject({ actor: team.member.admin.email, subject: member.email, detail: { role: 'member' } });
  });

  it('lets a member leave (their session acting in their own workspace again), never the owner', async () => {
    const team = await openTeam(api);
    const left = await team.member.accountant.post<WorkspaceList>('/api/workspaces/current/leave');
    expect(left).toMatchObject({ status: 200, body: { currentId: team.member.accountant.userId } });
    expect(left.body.workspaces.map((w) => w.id)).toEqual([team.member.accountant.userId]);
    expect(await rolesOf(team.id)).not.toHaveProperty(team.member.accountant.userId!);
    expect(await team.owner.post('/api/workspaces/current/leave')).toMatchObject(roleForbids);
    // Nobody leaves their personal workspace.
    const user = await api.signedIn();
    expect(await user.post('/api/workspaces/current/leave')).toMatchObject(roleForbids);
    const [entry] = (await trail(team.id)).filter((e) => e.action === 'member.left');
    expect(entry).toMatchObject({ actor: team.member.accountant.email, subject: team.member.accountant.email });
  });

  it('hands the workspace over: the member becomes the one owner, the owner an admin', async () => {
    const team = await openTeam(api);
    const { accountant } = team.member;
    expect(await team.member.admin.post('/api/workspaces/current/ownership', { userId: accountant.userId })).toMatchObject(roleForbids);
    const moved = await team.owner.post<MemberList>('/api/workspaces/current/ownership', { userId: accountant.userId });
    expect(moved.status).toBe(200);
    expect(moved.body.members[0]).toMatchObject({ userId: accountant.userId, role: 'owner' });
    const roles = await rolesOf(team.id);
    expect(roles).toMatchObject({ [accountant.userId!]: 'owner', [team.owner.userId!]: 'admin' });
    expect(Object.values(roles).filter((r) => r === 'owner')).toHaveLength(1);
    // The former owner is an admin now: what the owner alone may do is the new owner's.
    expect(await team.owner.post('/api/workspaces/current/ownership', { userId: team.owner.userId })).toMatchObject(roleForbids);
    expect(await accountant.delete(`/api/workspaces/current/members/${team.owner.userId}`)).toMatchObject({ status: 204 });
    const [entry] = (await trail(team.id)).filter((e) => e.action === 'ownership.transferred');
    expect(entry).toMatchObject({ actor: team.owner.email, subject: accountant.email, detail: { formerRole: 'accountant' } });
  });

  it('hands over only to a member, not to oneself, and takes no other fields', async () => {
    const team = await openTeam(api);
    const stranger = await api.signedIn();
    expect(await team.owner.post('/api/workspaces/current/ownership', { userId: stranger.userId })).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.notAMemberToTransfer },
    });
    expect(await team.owner.post('/api/workspaces/current/ownership', { userId: team.owner.userId })).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: MEMBERSHIP_MESSAGES.alreadyOwner } });
    expect((await team.owner.post('/api/workspaces/current/ownership', { userId: team.member.admin.userId, role: 'member' })).status).toBe(400);
    expect((await rolesOf(team.id))[team.owner.userId!]).toBe('owner');
  });

  it('has nothing to hand over or manage in a personal workspace', async () => {
    const user = await api.signedIn();
    expect(await user.post('/api/workspaces/current/ownership', { userId: user.userId })).toMatchObject(roleForbids);
    expect(await user.patch(`/api/workspaces/current/members/${user.userId}`, { role: 'admin' })).toMatchObject(roleForbids);
  });

  it('is closed to token requests', async () => {
    const team = await openTeam(api);
    const script = api.bearer((await api.token(team.owner, { scopes: ['receipts:read', 'receipts:write', 'export'] })).token);
    expect((await script.get('/api/workspaces/current/members')).status).toBe(403);
    expect((await script.patch(`/api/workspaces/current/members/${team.member.member.userId}`, { role: 'admin' })).status).toBe(403);
  });
});

/** The roles of a member list. */
function listed(answer: { body: MemberList }): string[] {
  return answer.body.members.map((m) => m.role);
}
