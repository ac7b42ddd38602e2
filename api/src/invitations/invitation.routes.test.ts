import { createHash } from 'node:crypto';
import {
  invitationListSchema,
  invitationPreviewSchema,
  invitationViewSchema,
  inviteMemberSchema,
  MEMBERSHIP_MESSAGES,
  WORKSPACE_MESSAGES,
  type InvitationList,
  type WorkspaceList,
} from '@receipts/common';
import { AuditRepository, schema } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invitationTokenIn, mailsInFolder } from '../../../tests/support/mail-folder.js';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { openTeam, type Team } from '../../../tests/support/teams.js';
import { addMember } from '../../../tests/support/workspaces.js';

const unauthenticated = { status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } };
const roleForbids = { status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } };
const linkInvalid = { status: 404, body: { error: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.linkInvalid } };
const invitationNotFound = { status: 404, body: { error: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.invitationNotFound } };
const SOMEONE = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 24 * 3600_000;

// Invitations over HTTP on the real api and database: sent by those who manage members, mailed
// (to files under DATA_DIR), previewed and accepted through the link.
describe('invitation routes', () => {
  const api = withRouteApi({ PUBLIC_URL: 'http://receipts.test' });
  const mails = (address: string) => mailsInFolder(api.runtime.config.DATA_DIR, address);
  /** The token of the latest invitation mailed to `address`. */
  const latestToken = async (address: string) => invitationTokenIn((await mails(address)).at(-1)!);
  const invite = (by: Caller, email: string, role = 'member') => by.post('/api/workspaces/current/invitations', { email, role });
  const trail = async (workspaceId: string) => (await new AuditRepository(api.runtime.db).page(workspaceId, { limit: 50 })).events;
  const rolesOf = async (team: Team) =>
    Object.fromEntries((await api.runtime.db.select().from(schema.workspaceMembers).where(eq(schema.workspaceMembers.workspaceId, team.id))).map((m) => [m.userId, m.role]));

  it.each([
    ['GET', '/api/workspaces/current/invitations'],
    ['POST', '/api/workspaces/current/invitations'],
    ['DELETE', `/api/workspaces/current/invitations/${SOMEONE}`],
    ['POST', `/api/workspaces/current/invitations/${SOMEONE}/resend`],
    ['POST', '/api/invitations/some-token/accept'],
  ])('answers %s %s to signed-in callers only', async (method, url) => {
    expect(await api.anonymous().send(method, url, {})).toMatchObject(unauthenticated);
  });

  it('mails a single-use link for seven days, stores only its hash, and lists the invitation without it', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    const made = await invite(team.member.admin, `  ${invitee.email!.toUpperCase()} `, 'accountant');
    expect(made.status).toBe(201);
    const view = invitationViewSchema.parse(made.body);
    expect(view).toMatchObject({ email: invitee.email, role: 'accountant', invitedBy: team.member.admin.email, expired: false });
    expect(Date.parse(view.expiresAt) - Date.parse(view.createdAt)).toBeCloseTo(7 * DAY_MS, -4);

    const [mail] = await mails(invitee.email!);
    expect(mail).toContain('Subject: user invited you to Corner Bakery on Receipts');
    expect(mail).toContain(`as ${'Accountant: reviews, approves and exports every receipt'}`);
    expect(mail).toMatch(/^http:\/\/receipts\.test\/invite\/[\w-]{43}$/m);
    const token = invitationTokenIn(mail!);
    const [stored] = await api.runtime.db.select().from(schema.workspaceInvitations).where(eq(schema.workspaceInvitations.id, view.id));
    expect(stored!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    for (const caller of [team.owner, team.member.accountant, team.member.member]) {
      const listed = await caller.get<InvitationList>('/api/workspaces/current/invitations');
      expect(invitationListSchema.parse(listed.body)).toEqual({ invitations: [view] });
      expect(JSON.stringify(listed.body)).not.toContain(token);
    }
    const [entry] = (await trail(team.id)).filter((e) => e.action === 'member.invited');
    expect(entry).toMatchObject({ actor: team.member.admin.email, subject: invitee.email, detail: { role: 'accountant', invitationId: view.id } });
  });

  it('is sent by owners and admins only, never for the owner role, nor into a personal workspace', async () => {
    const team = await openTeam(api);
    expect(await invite(team.member.accountant, 'x@example.test')).toMatchObject(roleForbids);
    expect(await invite(team.member.member, 'x@example.test')).toMatchObject(roleForbids);
    for (const body of [{ email: 'x@example.test', role: 'owner' }, { email: 'not an address', role: 'member' }, { email: 'x@example.test' }, { email: 'x@example.test', role: 'member', workspaceId: SOMEONE }]) {
      expect(await team.owner.post('/api/workspaces/current/invitations', body)).toMatchObject(invalid(inviteMemberSchema, body));
    }
    const loner = await api.signedIn();
    expect(await invite(loner, 'x@example.test')).toMatchObject(roleForbids);
    expect(await mails('x@example.test')).toEqual([]);
  });

  it('refuses to invite a member, and replaces an open invitation to the same address', async () => {
    const team = await openTeam(api);
    expect(await invite(team.owner, team.member.member.email!)).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: MEMBERSHIP_MESSAGES.alreadyMember } });
    const invitee = await api.signedIn();
    await invite(team.owner, invitee.email!, 'member');
    const first = await latestToken(invitee.email!);
    await invite(team.owner, invitee.email!, 'admin');
    const second = await latestToken(invitee.email!);
    expect((await team.owner.get<InvitationList>('/api/workspaces/current/invitations')).body.invitations.map((i) => i.role)).toEqual(['admin']);
    expect(await invitee.post(`/api/invitations/${first}/accept`)).toMatchObject(linkInvalid);
    expect((await invitee.post(`/api/invitations/${second}/accept`)).status).toBe(200);
    expect((await rolesOf(team))[invitee.userId!]).toBe('admin');
  });

  it('shows anyone with the link what it invites to; any other token is the same 404', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    await invite(team.owner, invitee.email!, 'accountant');
    const token = await latestToken(invitee.email!);
    const preview = await api.anonymous().get(`/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(invitationPreviewSchema.parse(preview.body)).toMatchObject({ workspace: 'Corner Bakery', invitedBy: { name: 'user', email: team.owner.email }, email: invitee.email, role: 'accountant' });
    for (const guess of ['x', token.slice(0, -1), `${token}A`, 'A'.repeat(43)]) expect(await api.anonymous().get(`/api/invitations/${guess}`)).toMatchObject(linkInvalid);
    expect((await api.anonymous().get(`/api/invitations/${'A'.repeat(201)}`)).status).toBe(400);
  });

  it('joins the invited address, once, in the invited role; the session then acts in the workspace', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    await invite(team.owner, invitee.email!, 'accountant');
    const token = await latestToken(invitee.email!);
    const joined = await invitee.post<WorkspaceList>(`/api/invitations/${token}/accept`);
    expect(joined).toMatchObject({ status: 200, body: { currentId: team.id } });
    expect(joined.body.workspaces.find((w) => w.id === team.id)).toMatchObject({ role: 'accountant', members: 5 });
    expect((await rolesOf(team))[invitee.userId!]).toBe('accountant');
    expect((await team.owner.get<InvitationList>('/api/workspaces/current/invitations')).body.invitations).toEqual([]);
    expect(await invitee.post(`/api/invitations/${token}/accept`)).toMatchObject(linkInvalid);
    expect(await invitee.get(`/api/invitations/${token}`)).toMatchObject(linkInvalid);
    const [entry] = (await trail(team.id)).filter((e) => e.action === 'member.joined');
    expect(entry).toMatchObject({ actor: invitee.email, subject: invitee.email, detail: { role: 'accountant' } });
  });

  it('refuses another address and an unconfirmed one without using the link up', async () => {
    const team = await openTeam(api);
    const [invitee, other] = [await api.signedIn('unconfirmed'), await api.signedIn()];
    await invite(team.owner, invitee.email!);
    const token = await latestToken(invitee.email!);
    expect(await other.post(`/api/invitations/${token}/accept`)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: MEMBERSHIP_MESSAGES.wrongAddress(invitee.email!) } });
    expect(await invitee.post(`/api/invitations/${token}/accept`)).toMatchObject({ status: 403, body: { error: 'EMAIL_NOT_VERIFIED', message: MEMBERSHIP_MESSAGES.confirmFirst(invitee.email!) } });
    expect(await rolesOf(team)).not.toHaveProperty(invitee.userId!);
    await api.runtime.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, invitee.userId!));
    expect((await invitee.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    expect(await rolesOf(team)).not.toHaveProperty(other.userId!);
  });

  it('answers 409 to someone who is a member already, leaving their role as it is', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    await invite(team.owner, invitee.email!, 'admin');
    await addMember(api.runtime.db, team.id, invitee.userId!, 'member');
    expect(await invitee.post(`/api/invitations/${await latestToken(invitee.email!)}/accept`)).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: MEMBERSHIP_MESSAGES.youAreMember } });
    expect((await rolesOf(team))[invitee.userId!]).toBe('member');
  });

  it('revokes an open invitation: its link dies; another workspace’s invitation is not found', async () => {
    const [team, other] = [await openTeam(api), await openTeam(api, 'Other')];
    const invitee = await api.signedIn();
    const { id } = (await invite(team.owner, invitee.email!)).body as { id: string };
    const token = await latestToken(invitee.email!);
    expect(await other.owner.delete(`/api/workspaces/current/invitations/${id}`)).toMatchObject(invitationNotFound);
    expect(await team.member.member.delete(`/api/workspaces/current/invitations/${id}`)).toMatchObject(roleForbids);
    expect(await team.member.admin.delete(`/api/workspaces/current/invitations/${id}`)).toMatchObject({ status: 204 });
    expect(await team.member.admin.delete(`/api/workspaces/current/invitations/${id}`)).toMatchObject(invitationNotFound);
    expect(await invitee.post(`/api/invitations/${token}/accept`)).toMatchObject(linkInvalid);
    expect((await team.owner.get<InvitationList>('/api/workspaces/current/invitations')).body.invitations).toEqual([]);
    const [entry] = (await trail(team.id)).filter((e) => e.action === 'invitation.revoked');
    expect(entry).toMatchObject({ actor: team.member.admin.email, subject: invitee.email });
  });

  it('resends with a new link and seven days more; the old link dies; an expired one is listed as such and revived', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    const { id } = (await invite(team.owner, invitee.email!)).body as { id: string };
    const first = await latestToken(invitee.email!);
    await api.runtime.db.update(schema.workspaceInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(schema.workspaceInvitations.id, id));
    expect(await api.anonymous().get(`/api/invitations/${first}`)).toMatchObject(linkInvalid);
    expect(await invitee.post(`/api/invitations/${first}/accept`)).toMatchObject(linkInvalid);
    expect((await team.owner.get<InvitationList>('/api/workspaces/current/invitations')).body.invitations).toMatchObject([{ id, expired: true }]);

    expect(await team.member.member.post(`/api/workspaces/current/invitations/${id}/resend`)).toMatchObject(roleForbids);
    const resent = await team.member.admin.post(`/api/workspaces/current/invitations/${id}/resend`);
    expect(resent).toMatchObject({ status: 200, body: { id, expired: false, invitedBy: team.member.admin.email } });
    expect(Date.parse(resent.body.expiresAt) - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);
    expect(await mails(invitee.email!)).toHaveLength(2);
    const second = await latestToken(invitee.email!);
    expect(second).not.toBe(first);
    expect(await invitee.post(`/api/invitations/${first}/accept`)).toMatchObject(linkInvalid);
    expect((await invitee.post(`/api/invitations/${second}/accept`)).status).toBe(200);
    expect(await team.owner.post(`/api/workspaces/current/invitations/${id}/resend`)).toMatchObject(invitationNotFound);
  });

  it('is closed to token requests', async () => {
    const team = await openTeam(api);
    const invitee = await api.signedIn();
    await invite(team.owner, invitee.email!);
    const script = api.bearer((await api.token(invitee, { scopes: ['receipts:read', 'receipts:write', 'export'] })).token);
    expect((await script.post(`/api/invitations/${await latestToken(invitee.email!)}/accept`)).status).toBe(403);
    expect((await script.get('/api/workspaces/current/invitations')).status).toBe(403);
    expect(await rolesOf(team)).not.toHaveProperty(invitee.userId!);
  });
});
