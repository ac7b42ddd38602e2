import type { WorkspaceRole } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import MembersPage from './members-page.js';

const TEAM = '22222222-2222-4222-8222-222222222222';
const PEOPLE = [
  { userId: 'u-owner', email: 'olga@example.test', username: 'olga', role: 'owner' },
  { userId: 'u-admin', email: 'adam@example.test', username: 'adam', role: 'admin' },
  { userId: 'u-member', email: 'mia@example.test', username: 'mia', role: 'member' },
] as const;

/** The api as one of the team's people sees it: their profile, the team acted in, its members and one open invitation. */
function teamServer(as: WorkspaceRole) {
  const me = PEOPLE.find((p) => p.role === as)!;
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push(`${method} ${url}${init.body ? ` ${String(init.body)}` : ''}`);
    const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === '/api/user/profile') return answer({ email: me.email, username: me.username, userType: 'user', emailVerified: true });
    if (url === '/api/workspaces') return answer({ workspaces: [{ id: TEAM, name: 'Corner Bakery', personal: false, role: as, members: 3 }], currentId: TEAM });
    if (url === '/api/workspaces/current/members' && method === 'GET') return answer({ members: PEOPLE.map((p) => ({ ...p, joinedAt: '2026-01-05T10:00:00.000Z' })) });
    if (url === '/api/workspaces/current/invitations' && method === 'GET') {
      return answer({ invitations: [{ id: 'i1', email: 'new@example.test', role: 'accountant', invitedBy: 'olga@example.test', createdAt: '2026-01-05T10:00:00.000Z', expiresAt: '2099-01-12T10:00:00.000Z', expired: false }] });
    }
    if (method === 'PATCH') return answer({ ...PEOPLE[2], role: 'accountant', joinedAt: '2026-01-05T10:00:00.000Z' });
    return answer(null, 204);
  });
  return calls;
}

/** A member's row of the members table. */
const rowOf = async (email: string) => (await within(await screen.findByRole('region', { name: 'Members' })).findByText(email)).closest('tr')!;

describe('members page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lets an admin change and remove members but never touch the owner, and invite', async () => {
    const calls = teamServer('admin');
    renderAt(<MembersPage />);
    const owner = await rowOf('olga@example.test');
    expect(within(owner).queryByRole('combobox')).toBeNull();
    expect(within(owner).queryByRole('button')).toBeNull();
    const member = await rowOf('mia@example.test');
    expect(within(member).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make owner' })).toBeNull();
    expect(screen.getByRole('form', { name: 'Invite someone' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke the invitation to new@example.test' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Leave Corner Bakery' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Corner Bakery' })).toBeNull();

    fireEvent.change(within(member).getByRole('combobox', { name: 'Role of mia@example.test' }), { target: { value: 'accountant' } });
    await waitFor(() => expect(calls).toContain('PATCH /api/workspaces/current/members/u-member {"role":"accountant"}'));
  });

  it('shows a member who is who, with nothing to change but leaving', async () => {
    teamServer('member');
    renderAt(<MembersPage />);
    await rowOf('adam@example.test');
    expect(screen.queryAllByRole('combobox')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Invite someone' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.getByText('new@example.test')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Leave Corner Bakery' })).toBeTruthy();
  });

  it('gives the owner the hand-over and deletion, not leaving; an invitation is checked before it is sent', async () => {
    const calls = teamServer('owner');
    renderAt(<MembersPage />);
    const admin = await rowOf('adam@example.test');
    expect(within(admin).getByRole('button', { name: 'Make owner' })).toBeTruthy();
    expect(within(await rowOf('olga@example.test')).queryByRole('button', { name: 'Make owner' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Corner Bakery' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Leave Corner Bakery' })).toBeNull();

    const form = screen.getByRole('form', { name: 'Invite someone' });
    fireEvent.change(within(form).getByLabelText('E-mail address'), { target: { value: 'not an address' } });
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe('Please enter a valid email address');
    fireEvent.change(within(form).getByLabelText('E-mail address'), { target: { value: ' New.Person@Example.test ' } });
    fireEvent.click(within(form).getByLabelText(/^Admin:/));
    fireEvent.submit(form);
    await waitFor(() => expect(calls).toContain('POST /api/workspaces/current/invitations {"email":"new.person@example.test","role":"admin"}'));
  });
});
