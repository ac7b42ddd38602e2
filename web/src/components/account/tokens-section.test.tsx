import { API_TOKEN_MESSAGES, type ApiTokenCreated, type ApiTokenView } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test-support.js';
import { TokensSection } from './tokens-section.js';

const TEXT = `rct_Ab3dE-6h_${'s'.repeat(43)}`;

/** A server answering /api/user/tokens the way the api does: the list, a new token on POST (its text once), none after DELETE. */
function tokenServer(start: ApiTokenView[]) {
  let tokens = [...start];
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : null });
    if (method === 'POST') {
      const input = JSON.parse(String(init.body)) as { name: string; scopes: ApiTokenView['scopes'] };
      const made: ApiTokenCreated = { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e09', name: input.name, prefix: 'rct_Ab3dE-6h', scopes: input.scopes, createdAt: '2030-01-01T00:00:00.000Z', lastUsedAt: null, expiresAt: null, token: TEXT };
      const { token: _text, ...view } = made;
      tokens = [view, ...tokens];
      return new Response(JSON.stringify(made), { status: 201 });
    }
    if (method === 'DELETE') {
      tokens = tokens.filter((t) => !url.endsWith(t.id));
      return new Response(null, { status: 204 });
    }
    return new Response(JSON.stringify({ tokens }), { status: 200 });
  });
  return calls;
}

const CI: ApiTokenView = {
  id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01',
  name: 'CI export',
  prefix: 'rct_Zz9yX8w7',
  scopes: ['receipts:read', 'export'],
  createdAt: '2025-05-01T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2025-06-01T10:00:00.000Z',
};
const NIGHTLY: ApiTokenView = { ...CI, id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02', name: 'Nightly', prefix: 'rct_Qq1wE2r3', scopes: ['receipts:write'], lastUsedAt: '2025-05-20T10:00:00.000Z', expiresAt: '2199-01-01T10:00:00.000Z' };

describe('access tokens section', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists tokens by name, prefix, scopes and dates, never their text', async () => {
    tokenServer([CI, NIGHTLY]);
    renderAt(<TokensSection confirmed />);
    const cells = async (name: string) => within((await screen.findByRole('rowheader', { name })).closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect((await cells('CI export')).slice(0, 5)).toEqual(['rct_Zz9yX8w7…', 'receipts:read, export', 'May 1, 2025', 'Never', 'Expired Jun 1, 2025']);
    expect((await cells('Nightly')).slice(0, 5)).toEqual(['rct_Qq1wE2r3…', 'receipts:write', 'May 1, 2025', 'May 20, 2025', 'Jan 1, 2199']);
    expect(document.body.textContent).not.toContain('rct_Zz9yX8w7_');
  });

  it('creates a token with the chosen scopes and expiry, shows its text once, and revokes one', async () => {
    const calls = tokenServer([CI]);
    const copied = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText: copied } });
    vi.stubGlobal('confirm', () => true);
    renderAt(<TokensSection confirmed />);
    await screen.findByRole('rowheader', { name: 'CI export' });

    // A token that may do nothing is refused before anything is sent.
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'Nightly upload' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Read receipts/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByRole('alert')).textContent).toBe(API_TOKEN_MESSAGES.scopesRequired);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.click(screen.getByRole('checkbox', { name: /Upload, correct and delete/ }));
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByTestId('new-token')).textContent).toBe(TEXT);
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Nightly upload', scopes: ['receipts:write'], expiresInDays: 365 });
    expect(screen.getByTestId('new-token').closest('.new-token')!.textContent).toContain(API_TOKEN_MESSAGES.shownOnce);
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(copied).toHaveBeenCalledWith(TEXT);
    expect(await screen.findByRole('rowheader', { name: 'Nightly upload' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-token')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Revoke the token CI export' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'CI export' })).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `/api/user/tokens/${CI.id}`)).toBe(true);
  });

  it('offers no form until the address is confirmed', async () => {
    tokenServer([]);
    renderAt(<TokensSection confirmed={false} />);
    expect((await screen.findByTestId('tokens-unconfirmed')).textContent).toBe(API_TOKEN_MESSAGES.confirmBeforeCreating);
    expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull();
  });
});
