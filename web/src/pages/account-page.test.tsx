import { DEFAULT_DATEV_SETTINGS } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import AccountPage from './account-page.js';

const RULES = [
  { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01', kind: 'merchant', match: 'ZENITH OPTICAL GALLERY', value: 'Zenith Optical', updatedAt: '2024-05-01T00:00:00Z' },
  { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02', kind: 'category', match: 'Zenith Optical', value: 'pharmacy', updatedAt: '2024-05-01T00:00:00Z' },
];

const CATEGORY_LIST = [
  ...['grocery', 'restaurant', 'gas', 'retail', 'pharmacy', 'other'].map((name) => ({ name, builtIn: true, datevAccount: null, receipts: name === 'grocery' ? 3 : 0 })),
  { name: 'Travel', builtIn: false, datevAccount: '4670', receipts: 2 },
];

describe('account page', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (url === '/api/user/profile') return ok({ id: 'u', email: 'a@example.test', username: 'a', userType: 'user' });
      if (url === '/api/user/rules') return ok({ rules: RULES });
      if (url === '/api/user/tokens') return ok({ tokens: [] });
      if (url === '/api/user/categories' && init?.method === 'POST') {
        const { name, datevAccount } = JSON.parse(String(init.body)) as { name: string; datevAccount: string | null };
        if (name.toLowerCase() === 'travel') return new Response(JSON.stringify({ error: 'CONFLICT', message: 'There is a category named Travel already.' }), { status: 409 });
        return new Response(JSON.stringify({ name, builtIn: false, datevAccount, receipts: 0 }), { status: 201 });
      }
      if (url === '/api/user/categories') return ok({ categories: CATEGORY_LIST });
      if (url === '/api/user/datev-settings' && init?.method === 'PUT') return ok({ settings: JSON.parse(String(init.body)), saved: true });
      if (url === '/api/user/datev-settings') return ok({ settings: DEFAULT_DATEV_SETTINGS, saved: false });
      if (url.startsWith('/api/user/rules/')) return ok({ ...RULES[1], value: 'other' });
      if (url === '/api/user/webhooks') return ok({ endpoints: [] });
      return new Response('{}', { status: 404 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the learned rules and saves a changed category', async () => {
    renderAt(<AccountPage />, '/account');
    const category = await screen.findByLabelText('Category for Zenith Optical');
    expect(screen.getByLabelText('Name for ZENITH OPTICAL GALLERY')).toHaveProperty('value', 'Zenith Optical');
    // A category of the user's own is one of the choices.
    expect([...(category as HTMLSelectElement).options].map((o) => o.value)).toContain('Travel');
    fireEvent.change(category, { target: { value: 'other' } });
    fireEvent.click(category.closest('form')!.querySelector('button')!);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === `/api/user/rules/${RULES[1]!.id}` && init?.method === 'PATCH')).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([url]) => url === `/api/user/rules/${RULES[1]!.id}`)!;
    expect(JSON.parse(String(init.body))).toEqual({ value: 'other' });
  });

  it('lists the categories, built in and one’s own with its account, and adds one; a taken name is said', async () => {
    renderAt(<AccountPage />, '/account');
    expect(await screen.findByLabelText('Name of Travel')).toHaveProperty('value', 'Travel');
    expect(screen.getByLabelText('DATEV account of Travel')).toHaveProperty('value', '4670');
    expect(screen.getAllByText('Built in')).toHaveLength(6);

    fireEvent.change(screen.getByLabelText('New category'), { target: { value: 'travel' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect((await screen.findByText('There is a category named Travel already.')).getAttribute('role')).toBe('alert');

    fireEvent.change(screen.getByLabelText('New category'), { target: { value: 'Office supplies' } });
    fireEvent.change(screen.getByLabelText('DATEV account (optional)'), { target: { value: '4930' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/user/categories' && init?.method === 'POST')).toHaveLength(2));
    const [, init] = fetchMock.mock.calls.filter(([url, i]) => url === '/api/user/categories' && i?.method === 'POST')[1]!;
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Office supplies', datevAccount: '4930' });
  });

  it('checks the DATEV settings before sending them, then saves them', async () => {
    renderAt(<AccountPage />, '/account');
    const cash = await screen.findByLabelText('Kasse (paid in cash)');
    fireEvent.change(cash, { target: { value: '10000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save DATEV settings' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Every account must have 4 digits (the Sachkontenlänge)');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);

    fireEvent.change(cash, { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText('Beraternummer'), { target: { value: '4711' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save DATEV settings' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(JSON.parse(String(init.body))).toEqual({ ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4711, cashAccount: '1001' });
  });
});
