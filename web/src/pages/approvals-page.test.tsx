import type { ApprovalQueue, ApprovalReceipt, ReportDetail, WorkspaceList, WorkspaceRole } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { ApprovalsPage } from './approvals-page.js';

const TEAM = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';

const receipt = (n: number, fields: Partial<ApprovalReceipt> = {}): ApprovalReceipt => ({
  id: `0b7c1d6e-3f35-4c55-8f0e-6f1c2a4b9d1${n}`,
  uploadId: `5a1f8c2e-7d44-4b1a-9c3e-2e8f6d0b7a2${n}`,
  filename: `receipt-${n}.jpg`,
  uploadStatus: 'completed',
  uploadedAt: '2026-03-14T09:45:00.000Z',
  updatedAt: '2026-03-14T09:45:10.000Z',
  edited: false,
  originalAvailable: true,
  merchantName: `Shop ${n}`,
  date: '2026-03-14',
  total: 5,
  currency: 'EUR',
  category: 'other',
  quality: 0.9,
  items: [],
  rawText: '',
  issues: [],
  flags: [],
  acceptedIssues: [],
  valid: true,
  submitter: 'Mia',
  approval: { status: 'submitted', comment: null, decidedBy: null, decidedAt: null, submittedAt: '2026-03-15T08:00:00.000Z', reportId: null },
  ...fields,
});

const report: ReportDetail = {
  id: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  name: 'March travel',
  from: '2026-03-01',
  to: '2026-03-31',
  status: 'submitted',
  submitter: 'Cole',
  comment: null,
  decidedBy: null,
  receipts: 2,
  totals: [{ currency: 'EUR', total: 10 }],
  createdAt: '2026-03-31T10:00:00.000Z',
  submittedAt: '2026-03-31T10:00:00.000Z',
  decidedAt: null,
  items: [receipt(2), receipt(3)],
};

/** The page for someone of `role` in a team workspace; returns the decisions it posted. */
function renderAs(role: WorkspaceRole, queue: ApprovalQueue = { receipts: [receipt(1)], reports: [report] }) {
  const posted: Array<{ url: string; body: unknown }> = [];
  const workspaces: WorkspaceList = { workspaces: [{ id: TEAM, name: 'Acme', personal: false, role, members: 4 }], currentId: TEAM };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/user/profile') return new Response(JSON.stringify({ email: 'a@example.test', username: 'Alex', userType: 'user' }));
      if (url === '/api/workspaces') return new Response(JSON.stringify(workspaces));
      if (url === '/api/approvals') return new Response(JSON.stringify(queue));
      if (init?.method === 'POST') {
        posted.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({}));
      }
      return new Response(JSON.stringify({ error: 'NOT_FOUND', message: 'Not found' }), { status: 404 });
    }),
  );
  renderAt(<ApprovalsPage />, '/approvals');
  return posted;
}

describe('the approval queue', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('approves a receipt, and rejects one only with a comment saying what to correct', async () => {
    const posted = renderAs('accountant');
    const single = within((await screen.findAllByTestId('approval-receipt', {}, { timeout: 10_000 })).find((li) => li.textContent?.includes('Shop 1'))!);
    expect(single.getByText(/from Mia/)).toBeTruthy();
    fireEvent.click(single.getByRole('button', { name: 'Approve Shop 1' }));
    await waitFor(() => expect(posted).toEqual([{ url: `/api/receipts/${receipt(1).id}/approve`, body: {} }]));

    const reject = single.getByRole('button', { name: 'Reject Shop 1' }) as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    fireEvent.change(single.getByLabelText('Comment on Shop 1'), { target: { value: '  The total is wrong.  ' } });
    expect(reject.disabled).toBe(false);
    fireEvent.click(reject);
    await waitFor(() => expect(posted.at(-1)).toEqual({ url: `/api/receipts/${receipt(1).id}/reject`, body: { comment: 'The total is wrong.' } }));
  });

  it('decides a report as a whole or receipt by receipt, and downloads it', async () => {
    const posted = renderAs('owner');
    const card = within(await screen.findByRole('article', { name: 'Report March travel' }, { timeout: 10_000 }));
    expect(card.getByText(/Cole · 2026-03-01 to 2026-03-31 · 2 receipts/)).toBeTruthy();
    expect(card.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(`/api/reports/${report.id}/export?format=pdf`);
    expect(card.getByRole('link', { name: 'Download workbook' }).getAttribute('href')).toBe(`/api/reports/${report.id}/export?format=xlsx`);
    fireEvent.change(card.getByLabelText('Comment on Shop 3'), { target: { value: 'Private.' } });
    fireEvent.click(card.getByRole('button', { name: 'Reject Shop 3' }));
    await waitFor(() => expect(posted).toEqual([{ url: `/api/receipts/${receipt(3).id}/reject`, body: { comment: 'Private.' } }]));
    fireEvent.click(card.getByRole('button', { name: 'Approve the whole report March travel' }));
    await waitFor(() => expect(posted.at(-1)).toEqual({ url: `/api/reports/${report.id}/approve`, body: {} }));
  });

  it('says when nothing waits, and shows a member no queue at all', async () => {
    renderAs('admin', { receipts: [], reports: [] });
    expect(await screen.findByText('Nothing waits for your decision in Acme.', {}, { timeout: 10_000 })).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    renderAs('member');
    expect(await screen.findByText(/Approving receipts is for a team workspace’s owner, admins and accountants/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(vi.mocked(fetch).mock.calls.map(([url]) => url)).not.toContain('/api/approvals');
  });
});
