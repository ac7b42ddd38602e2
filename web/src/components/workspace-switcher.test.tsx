import type { WorkspaceList } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '../lib/toast.js';
import { renderAt } from '../test-support.js';
import { Toaster } from './toaster.js';
import { WorkspaceSwitcher } from './workspace-switcher.js';

const OWN = '11111111-1111-4111-8111-111111111111';
const BAKERY = '22222222-2222-4222-8222-222222222222';
const NEW = '33333333-3333-4333-8333-333333333333';

/** A server answering the switcher's calls as the api does, recording each; `refuse` answers the switch with that error. */
function workspaceServer({ refuse, currentId = OWN }: { refuse?: { status: number; body: unknown }; currentId?: string } = {}) {
  const list: WorkspaceList = {
    workspaces: [
      { id: OWN, name: 'ann', personal: true, role: 'owner', members: 1 },
      { id: BAKERY, name: 'Corner Bakery', personal: false, role: 'accountant', members: 4 },
    ],
    currentId,
  };
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push(`${method} ${url}${init.body ? ` ${String(init.body)}` : ''}`);
    if (method === 'PUT' && refuse) return new Response(JSON.stringify(refuse.body), { status: refuse.status });
    if (method === 'PUT') list.currentId = JSON.parse(String(init.body)).workspaceId;
    if (method === 'POST') return new Response(JSON.stringify({ id: NEW, name: 'Night Shift', personal: false, role: 'owner', members: 1 }), { status: 201 });
    return new Response(JSON.stringify(list), { status: 200 });
  });
  return calls;
}

/** Opens the menu as a keyboard does (Radix opens on Enter). */
const openMenu = async (name = 'ann') => {
  const trigger = await screen.findByRole('button', { name: `Workspace: ${name}. Switch workspace` });
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.findByRole('menu');
};

describe('workspace switcher', () => {
  afterEach(() => {
    act(() => dismissToast());
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the workspace requests act in and lists every workspace with the role in it', async () => {
    workspaceServer();
    renderAt(<WorkspaceSwitcher reload={vi.fn()} />);
    const menu = await openMenu();
    const items = screen.getAllByRole('menuitemradio');
    expect(items.map((i) => i.textContent)).toEqual(['✓ annPersonal', 'Corner BakeryAccountant · 4 members']);
    expect(items[0]!.getAttribute('aria-checked')).toBe('true');
    // Members is for a team workspace; the personal one has none to manage.
    expect(menu.textContent).not.toContain('Members');
    expect(screen.getByRole('menuitem', { name: 'New workspace' })).toBeTruthy();
  });

  it('switches the session to the workspace chosen, then loads the app again', async () => {
    const calls = workspaceServer();
    const reload = vi.fn();
    renderAt(<WorkspaceSwitcher reload={reload} />);
    await openMenu();
    fireEvent.click(screen.getByRole('menuitemradio', { name: /Corner Bakery/ }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls).toEqual(['GET /api/workspaces', `PUT /api/workspaces/current {"workspaceId":"${BAKERY}"}`]);
  });

  it('says why a switch was refused, and stays', async () => {
    workspaceServer({ refuse: { status: 404, body: { error: 'NOT_FOUND', message: 'No such workspace, or you are not a member of it.' } } });
    const reload = vi.fn();
    renderAt(
      <>
        <WorkspaceSwitcher reload={reload} />
        <Toaster />
      </>,
    );
    await openMenu();
    fireEvent.click(screen.getByRole('menuitemradio', { name: /Corner Bakery/ }));
    expect(await screen.findByText('No such workspace, or you are not a member of it.')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('makes a new workspace from its name, checked as the api checks it, and switches to it', async () => {
    const calls = workspaceServer();
    const reload = vi.fn();
    renderAt(<WorkspaceSwitcher reload={reload} />);
    await openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'New workspace' }));
    const form = await screen.findByRole('form', { name: 'New workspace' });
    fireEvent.submit(form);
    expect((await screen.findByRole('alert')).textContent).toBe('Name the workspace.');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Night Shift ' } });
    fireEvent.submit(form);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls.slice(1)).toEqual(['POST /api/workspaces {"name":"Night Shift"}', `PUT /api/workspaces/current {"workspaceId":"${NEW}"}`]);
  });

  it('offers the members page in a team workspace', async () => {
    workspaceServer({ currentId: BAKERY });
    renderAt(<WorkspaceSwitcher reload={vi.fn()} />);
    await openMenu('Corner Bakery');
    expect(screen.getByRole('menuitem', { name: 'Members' }).getAttribute('href')).toBe('/workspace/members');
  });
});
