import type { SpendingReport } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { REPORTS_PAGE_PATH } from '../lib/workspace-plan-api.js';
import ReportsPage from './reports-page.js';

const ANN = '0b7c1d6e-3f35-4c55-8f0e-6f1c2a4b9d10';
const BO = '5a1f8c2e-7d44-4b1a-9c3e-2e8f6d0b7a21';
const amount = (total: number, receipts: number) => ({ total, receipts });

const REPORT: SpendingReport = {
  currencies: [
    {
      currency: 'EUR',
      ...amount(62, 4),
      months: [{ month: '2024-03', ...amount(62, 4) }],
      categories: [{ category: 'gas', ...amount(40, 1) }, { category: 'grocery', ...amount(22, 3) }],
      merchants: [{ merchant: 'Shell', ...amount(40, 1) }, { merchant: 'Sunrise Bakery', ...amount(22, 3) }],
      members: [
        { userId: BO, email: 'bo@example.test', ...amount(45, 2) },
        { userId: ANN, email: 'ann@example.test', ...amount(10, 1) },
        { userId: null, email: null, ...amount(7, 1) },
      ],
    },
    {
      currency: 'USD',
      ...amount(25.5, 1),
      months: [{ month: '2024-04', ...amount(25.5, 1) }],
      categories: [{ category: 'retail', ...amount(25.5, 1) }],
      merchants: [{ merchant: 'Staples', ...amount(25.5, 1) }],
      members: [{ userId: ANN, email: 'ann@example.test', ...amount(25.5, 1) }],
    },
  ],
  notCounted: 1,
  roster: [
    { userId: ANN, email: 'ann@example.test', username: 'Ann', role: 'owner' },
    { userId: BO, email: 'bo@example.test', username: 'Bo', role: 'member' },
  ],
};

/** The table of the figure titled `title`, its rows as the cells' texts. */
function tableOf(title: string): string[][] {
  const figure = screen.getByText(title, { selector: 'figcaption' }).closest('figure')!;
  return [...within(figure).getByRole('table').querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((cell) => cell.textContent ?? ''));
}

describe('reports page', () => {
  let asked: string[];
  let answer: () => Response;
  beforeEach(() => {
    asked = [];
    answer = () => new Response(JSON.stringify(REPORT), { status: 200 });
    // Recharts sizes its charts with a ResizeObserver, which jsdom has not.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/user/profile') return new Response(JSON.stringify({ email: 'ann@example.test', username: 'Ann', userType: 'user', emailVerified: true }));
        if (url.startsWith('/api/workspaces/current/reports')) {
          asked.push(url);
          return answer();
        }
        return new Response(JSON.stringify({ error: 'NOT_FOUND', message: 'Not found' }), { status: 404 });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the spending per member with its table, members named as the workspace knows them, one currency at a time', async () => {
    renderAt(<ReportsPage />, REPORTS_PAGE_PATH);
    expect(await screen.findByTestId('report-total', {}, { timeout: 10_000 })).toHaveProperty('textContent', '€62.00 across 4 receipts in EUR (currencies are never added together).');
    expect(tableOf('Spending per member')).toEqual([
      ['Bo (bo@example.test)', '2', '€45.00'],
      ['Ann (ann@example.test)', '1', '€10.00'],
      ['Former member', '1', '€7.00'],
    ]);
    expect(tableOf('Spending per merchant').map((row) => row[0])).toEqual(['Shell', 'Sunrise Bakery']);
    fireEvent.click(screen.getByRole('button', { name: /^USD/ }));
    expect(tableOf('Spending per member')).toEqual([['Ann (ann@example.test)', '1', '$25.50']]);
    expect(screen.getByText('1 receipt not counted: no total read, or marked as a possible duplicate.')).toBeTruthy();
  });

  it('asks for the period and the member chosen', async () => {
    renderAt(<ReportsPage />, REPORTS_PAGE_PATH);
    const year = new Date().getFullYear();
    await waitFor(() => expect(asked.at(-1)).toContain(`from=${year}-01-01`));
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'last-year' } });
    await waitFor(() => expect(asked.at(-1)).toBe(`/api/workspaces/current/reports?from=${year - 1}-01-01&to=${year - 1}-12-31`));
    const member = await screen.findByLabelText('Member');
    expect([...(member as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Everyone', 'Ann (ann@example.test)', 'Bo (bo@example.test)']);
    fireEvent.change(member, { target: { value: BO } });
    await waitFor(() => expect(asked.at(-1)).toBe(`/api/workspaces/current/reports?from=${year - 1}-01-01&to=${year - 1}-12-31&member=${BO}`));
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'custom' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-02-01' } });
    await waitFor(() => expect(asked.at(-1)).toBe(`/api/workspaces/current/reports?from=2024-02-01&member=${BO}`));
  });

  it('tells a role that may not read reports why', async () => {
    answer = () => new Response(JSON.stringify({ error: 'FORBIDDEN', message: 'Your role in this workspace does not allow this.' }), { status: 403 });
    renderAt(<ReportsPage />, REPORTS_PAGE_PATH);
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe('Your role in this workspace does not allow this.');
  });
});
