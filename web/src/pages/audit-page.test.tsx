import { AUDIT_MESSAGES, WORKSPACE_MESSAGES, type AuditEventView, type AuditPage as AuditPageView, type WorkspaceRole } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NavBar } from '../components/nav-bar.js';
import { renderAt } from '../test-support.js';
import AuditPage from './audit-page.js';

const ANN = { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01', email: 'ann@example.test' };
const BOB = { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02', email: 'bob@example.test' };

const event = (id: string, actor: string | null, action: AuditEventView['action'], detail: Record<string, unknown>): AuditEventView => ({
  id,
  action,
  actor,
  subject: null,
  detail,
  at: '2026-05-01T09:30:00.000Z',
});

const NEWEST: AuditPageView = {
  events: [
    event('e3', BOB.email, 'export.downloaded', { format: 'csv', preset: 'datev', receipts: 12 }),
    event('e2', ANN.email, 'receipt.corrected', { filename: 'Taxi.pdf', fields: ['total'] }),
  ],
  next: 'cursor-1',
  actors: [ANN, BOB],
};
const OLDER: AuditPageView = { events: [event('e1', null, 'receipt.uploaded', { filename: 'Taxi.pdf' })], next: null, actors: [ANN, BOB] };

/** The api as the page meets it: the account, its workspace in `role`, and the trail's pages. */
function stubApi(role: WorkspaceRole) {
  const fetchMock = vi.fn(async (url: string) => {
    const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    if (url === '/api/user/profile') return ok({ id: ANN.id, email: ANN.email, username: 'ann', userType: 'user', emailVerified: true });
    if (url === '/api/workspaces') return ok({ workspaces: [{ id: 'w1', name: 'Acme', personal: false, role, members: 2 }], currentId: 'w1' });
    if (url.startsWith('/api/workspaces/current/audit')) {
      const query = new URL(url, 'http://app.test').searchParams;
      if (query.get('action') === 'member.removed') return ok({ events: [], next: null, actors: [ANN, BOB] });
      if (query.get('actor') === BOB.id) return ok({ events: [NEWEST.events[0]], next: null, actors: [ANN, BOB] });
      return ok(query.get('cursor') === 'cursor-1' ? OLDER : NEWEST);
    }
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').slice(1).map((cell) => cell.textContent));
const auditCalls = (fetchMock: ReturnType<typeof stubApi>) => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/workspaces/current/audit'));

describe('audit page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists who did what, newest first, and loads the older acts on asking', async () => {
    stubApi('owner');
    renderAt(<AuditPage />, '/workspace/audit');
    expect(await screen.findByText('Who did what in Acme, and when.')).toBeTruthy();
    await screen.findByRole('table');
    expect(rows()).toEqual([
      [BOB.email, 'Export downloaded Exported 12 receipts for DATEV Buchungsstapel (CSV)'],
      [ANN.email, 'Receipt corrected Corrected the total of Taxi.pdf'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    // An act of someone whose account is gone names no one.
    expect(rows()[2]).toEqual([AUDIT_MESSAGES.system, 'Receipt uploaded Uploaded Taxi.pdf']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by kind of act and by member, from the people the trail names', async () => {
    const fetchMock = stubApi('admin');
    renderAt(<AuditPage />, '/workspace/audit');
    await screen.findByRole('table');
    const who = screen.getByLabelText('Who') as HTMLSelectElement;
    expect([...who.options].map((o) => o.text)).toEqual(['Everyone', ANN.email, BOB.email]);
    fireEvent.change(who, { target: { value: BOB.id } });
    await waitFor(() => expect(rows()).toEqual([[BOB.email, 'Export downloaded Exported 12 receipts for DATEV Buchungsstapel (CSV)']]));
    expect(auditCalls(fetchMock)).toContain(`/api/workspaces/current/audit?actor=${BOB.id}`);

    fireEvent.change(who, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('What'), { target: { value: 'member.removed' } });
    expect(await screen.findByText(AUDIT_MESSAGES.emptyFiltered)).toBeTruthy();
    expect(auditCalls(fetchMock)).toContain('/api/workspaces/current/audit?action=member.removed');
  });

  /** The account menu (mobile) beside the page, of someone acting in a workspace in `role`. */
  async function menuAndPage(role: WorkspaceRole) {
    const fetchMock = stubApi(role);
    renderAt(
      <>
        <NavBar />
        <AuditPage />
      </>,
      '/workspace/audit',
    );
    await screen.findByRole('button', { name: 'Account menu for ann' });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    return { fetchMock, menu: document.getElementById('mobile-menu')! };
  }

  it.each(['owner', 'admin'] as const)('is in the account menu of someone who is %s', async (role) => {
    const { menu } = await menuAndPage(role);
    expect((await within(menu).findByRole('link', { name: 'Audit trail' })).getAttribute('href')).toBe('/workspace/audit');
  });

  it.each(['accountant', 'member'] as const)('is neither offered to nor read for someone who is %s: the page says their role does not allow it', async (role) => {
    const { fetchMock, menu } = await menuAndPage(role);
    // The page has the workspace's role by the time it says so, and so has the menu.
    expect((await screen.findByRole('alert')).textContent).toBe(WORKSPACE_MESSAGES.roleForbids);
    expect(within(menu).getByRole('link', { name: 'Billing' })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Audit trail' })).toBeNull();
    expect(auditCalls(fetchMock)).toEqual([]);
  });
});
