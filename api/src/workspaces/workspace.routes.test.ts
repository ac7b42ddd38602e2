import { MEMBERSHIP_MESSAGES, OWNED_WORKSPACES_MAX, WORKSPACE_HEADER, WORKSPACE_MESSAGES, workspaceListSchema, workspaceNameBodySchema, type WorkspaceList } from '@receipts/common';
import { schema } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi } from '../../../tests/support/route-api.js';
import { openTeam, switchTo } from '../../../tests/support/teams.js';

const unauthenticated = { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } };
const roleForbids = { status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } };
const notFound = { status: 404, body: { error: 'NOT_FOUND', message: WORKSPACE_MESSAGES.notFound } };

// /api/workspaces over HTTP on the real api and database: the switcher's list, a new workspace,
// switching, renaming and deleting.
describe('/api/workspaces routes', () => {
  const api = withRouteApi();

  it.each([
    ['GET', '/api/workspaces'],
    ['POST', '/api/workspaces'],
    ['PUT', '/api/workspaces/current'],
    ['PATCH', '/api/workspaces/current'],
    ['DELETE', '/api/workspaces/current'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject(unauthenticated);
  });

  it('lists the personal workspace first and acts in it until switched', async () => {
    const user = await api.signedIn();
    const listed = await user.get<WorkspaceList>('/api/workspaces');
    expect(listed.status).toBe(200);
    expect(workspaceListSchema.parse(listed.body)).toEqual({
      workspaces: [{ id: user.userId, name: 'user', personal: true, role: 'owner', members: 1 }],
      currentId: user.userId,
    });
  });

  it('makes a team workspace its maker owns, listed after the personal one, without switching to it', async () => {
    const user = await api.signedIn();
    const made = await user.post('/api/workspaces', { name: '  Zeta Studio ' });
    expect(made).toMatchObject({ status: 201, body: { name: 'Zeta Studio', personal: false, role: 'owner', members: 1 } });
    await user.post('/api/workspaces', { name: 'alpha shop' });
    const { body } = await user.get<WorkspaceList>('/api/workspaces');
    expect(body.workspaces.map((w) => w.name)).toEqual(['user', 'alpha shop', 'Zeta Studio']);
    expect(body.currentId).toBe(user.userId);
  });

  it('refuses a name that is empty, too long or not text, and fields it does not know', async () => {
    const user = await api.signedIn();
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(81) }, { name: 'a\u0000b' }, { name: 'Shop', personalOf: user.userId }]) {
      expect(await user.post('/api/workspaces', body)).toMatchObject(invalid(workspaceNameBodySchema, body));
    }
    expect((await user.get<WorkspaceList>('/api/workspaces')).body.workspaces).toHaveLength(1);
  });

  it('makes workspaces for confirmed addresses only, and at most the bound of them', async () => {
    const unconfirmed = await api.signedIn('unconfirmed');
    expect(await unconfirmed.post('/api/workspaces', { name: 'Shop' })).toMatchObject({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: WORKSPACE_MESSAGES.confirmBeforeCreating } });
    const user = await api.signedIn();
    for (let i = 0; i < OWNED_WORKSPACES_MAX; i++) expect((await user.post('/api/workspaces', { name: `Shop ${i}` })).status).toBe(201);
    expect(await user.post('/api/workspaces', { name: 'One more' })).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: WORKSPACE_MESSAGES.tooMany } });
  });

  it('switches the session to a workspace of its own, and back; never to another account’s', async () => {
    const [user, stranger] = [await api.signedIn(), await api.signedIn()];
    const team = (await user.post('/api/workspaces', { name: 'Team' })).body.id as string;
    const switched = await user.put<WorkspaceList>('/api/workspaces/current', { workspaceId: team });
    expect(switched).toMatchObject({ status: 200, body: { currentId: team } });
    expect((await user.get<WorkspaceList>('/api/workspaces')).body.currentId).toBe(team);
    // Uploads land in the workspace switched to: the personal one does not show them.
    await api.receipt(user);
    expect((await user.get('/api/uploads')).body).toHaveLength(1);
    expect(await user.put('/api/workspaces/current', { workspaceId: user.userId })).toMatchObject({ status: 200, body: { currentId: user.userId } });
    expect((await user.get('/api/uploads')).body).toHaveLength(0);

    expect(await stranger.put('/api/workspaces/current', { workspaceId: team })).toMatchObject(notFound);
    expect(await stranger.put('/api/workspaces/current', { workspaceId: user.userId })).toMatchObject(notFound);
    expect((await stranger.put('/api/workspaces/current', { workspaceId: 'personal' })).status).toBe(400);
    // A header naming a workspace one is not in is refused, not ignored.
    expect(await stranger.send('GET', '/api/uploads', undefined, { [WORKSPACE_HEADER]: team })).toMatchObject(notFound);
  });

  it('renames the workspace for owners and admins; others’ roles forbid it', async () => {
    const team = await openTeam(api);
    expect(await team.member.admin.patch('/api/workspaces/current', { name: 'Bakery & Café' })).toMatchObject({ status: 200, body: { id: team.id, name: 'Bakery & Café', role: 'admin', members: 4 } });
    expect(await team.member.accountant.patch('/api/workspaces/current', { name: 'Mine' })).toMatchObject(roleForbids);
    expect(await team.member.member.patch('/api/workspaces/current', { name: 'Mine' })).toMatchObject(roleForbids);
    expect((await team.owner.get<WorkspaceList>('/api/workspaces')).body.workspaces.find((w) => w.id === team.id)?.name).toBe('Bakery & Café');
  });

  it('deletes a team workspace for its owner only, with its uploads’ files; its members fall back to their own', async () => {
    const team = await openTeam(api);
    const uploadId = await (async () => {
      await api.receipt(team.member.member);
      const [row] = await api.runtime.db.select({ id: schema.uploads.id }).from(schema.uploads).where(eq(schema.uploads.workspaceId, team.id));
      return row!.id;
    })();
    await api.runtime.files.read(uploadId);
    expect(await team.member.admin.delete('/api/workspaces/current')).toMatchObject(roleForbids);
    expect(await team.member.member.delete('/api/workspaces/current')).toMatchObject(roleForbids);

    expect(await team.owner.delete('/api/workspaces/current')).toMatchObject({ status: 200, body: { message: MEMBERSHIP_MESSAGES.deleted } });
    expect(await api.runtime.db.select().from(schema.workspaces).where(eq(schema.workspaces.id, team.id))).toEqual([]);
    expect(await api.runtime.db.select().from(schema.uploads).where(eq(schema.uploads.id, uploadId))).toEqual([]);
    await expect(api.runtime.files.read(uploadId)).rejects.toThrow();
    for (const caller of [team.owner, team.member.member]) {
      const { body } = await caller.get<WorkspaceList>('/api/workspaces');
      expect(body).toEqual({ workspaces: [expect.objectContaining({ id: caller.userId, personal: true })], currentId: caller.userId });
    }
  });

  it('never deletes a personal workspace this way', async () => {
    const user = await api.signedIn();
    expect(await user.delete('/api/workspaces/current')).toMatchObject(roleForbids);
    expect((await user.get<WorkspaceList>('/api/workspaces')).body.workspaces).toHaveLength(1);
  });

  it('lists workspaces for a token with receipts:read; the rest is closed to tokens', async () => {
    const user = await api.signedIn();
    const team = (await user.post('/api/workspaces', { name: 'Team' })).body.id as string;
    const script = api.bearer((await api.token(user, { scopes: ['receipts:read', 'receipts:write', 'export'] })).token);
    expect((await script.get<WorkspaceList>('/api/workspaces')).body.workspaces).toHaveLength(2);
    expect((await script.post('/api/workspaces', { name: 'More' })).status).toBe(403);
    expect((await script.put('/api/workspaces/current', { workspaceId: team })).status).toBe(403);
    expect((await script.send('PATCH', '/api/workspaces/current', { name: 'Renamed' }, { [WORKSPACE_HEADER]: team })).status).toBe(403);
    expect((await script.send('DELETE', '/api/workspaces/current', undefined, { [WORKSPACE_HEADER]: team })).status).toBe(403);
    await switchTo(user, team);
    expect((await user.get<WorkspaceList>('/api/workspaces')).body.workspaces.find((w) => w.id === team)?.name).toBe('Team');
  });
});
