import { issueFlag, shownIssues, type LibraryReceipt, type ReceiptDetail } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { ReviewPage } from './review-page.js';

const OLD = 'Date out of reasonable range';
const receipt = (n: number, fields: Partial<LibraryReceipt>): LibraryReceipt => ({
  id: `0b7c1d6e-3f35-4c55-8f0e-6f1c2a4b9d1${n}`,
  uploadId: `5a1f8c2e-7d44-4b1a-9c3e-2e8f6d0b7a2${n}`,
  filename: `receipt-${n}.jpg`,
  uploadStatus: 'completed',
  uploadedAt: '2026-03-14T09:45:00.000Z',
  updatedAt: '2026-03-14T09:45:10.000Z',
  edited: false,
  originalAvailable: true,
  approval: { status: 'not-required', comment: null, decidedBy: null, decidedAt: null, submittedAt: null, reportId: null },
  merchantName: `Shop ${n}`,
  date: '2019-03-14',
  total: 5,
  category: 'other',
  quality: 0.8,
  items: [],
  rawText: '',
  ...shownIssues([issueFlag('dateOutOfRange')]),
  acceptedIssues: [],
  valid: false,
  ...fields,
});

/** A server holding `queue`: accepting a receipt's flags takes it out of the queue, as the api does. */
function serve(queue: LibraryReceipt[]) {
  const sent: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      if (init?.method === 'POST') sent.push({ url, body });
      const found = queue.find((r) => url.startsWith(`/api/receipts/${r.id}`));
      if (url.startsWith('/api/receipts?')) return Response.json({ items: queue, total: queue.length, page: 1, pageSize: 200, currencies: [] });
      if (url === '/api/receipts/flags/accept') {
        const before = queue.length;
        queue.splice(0, queue.length, ...queue.filter((r) => !r.issues.every((i) => i === body.kind)));
        return Response.json({ receipts: before - queue.length });
      }
      if (found && url.endsWith('/issues/accept')) {
        const accepted = { ...found, acceptedIssues: [{ issue: body.issue, userId: null, at: '2026-03-15T00:00:00.000Z' }] };
        const open = found.issues.filter((i) => i !== body.issue);
        if (open.length === 0) queue.splice(queue.indexOf(found), 1);
        return Response.json({ ...accepted, valid: open.length === 0, fullText: '', lines: [], fieldLines: {}, pages: 0, edits: [] } as unknown as ReceiptDetail);
      }
      if (found) return Response.json({ ...found, fullText: '', lines: [], fieldLines: {}, pages: 0, edits: [] });
      return Response.json({ error: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
    }),
  );
  renderAt(<ReviewPage />, '/review');
  return sent;
}

const position = () => screen.findByText(/^Receipt \d+ of \d+$/, {}, { timeout: 10_000 });

describe('the review inbox', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('goes through the receipts by keyboard: next, previous, accept, correct and back', async () => {
    const queue = [receipt(1, {}), receipt(2, shownIssues([issueFlag('totalUnconfirmed')])), receipt(3, {})];
    const [first] = queue;
    const sent = serve(queue);
    expect((await position()).textContent).toBe('Receipt 1 of 3');
    expect(screen.getByText(/receipt-1\.jpg/)).toBeTruthy();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByText(/receipt-2\.jpg/)).toBeTruthy());
    fireEvent.keyDown(window, { key: 'k' });
    await waitFor(() => expect(screen.getByText(/receipt-1\.jpg/)).toBeTruthy());

    // C corrects; Escape stops correcting, the page stays.
    fireEvent.keyDown(window, { key: 'c' });
    await screen.findByRole('button', { name: 'Save corrections' });
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save corrections' })).toBeNull());

    // A accepts this receipt's flags: it leaves the inbox, and the next takes its place.
    fireEvent.keyDown(window, { key: 'a' });
    await waitFor(() => expect(sent).toEqual([{ url: `/api/receipts/${first!.id}/issues/accept`, body: { issue: OLD } }]));
    await waitFor(() => expect(screen.getByText(/receipt-2\.jpg/)).toBeTruthy());
    expect((await position()).textContent).toBe('Receipt 1 of 2');
    // Keys typed into a field are the field's.
    fireEvent.keyDown(window, { key: 'c' });
    const merchant = await screen.findByLabelText('Merchant', { exact: true });
    fireEvent.keyDown(merchant, { key: 'a' });
    expect(sent).toHaveLength(1);
  });

  it('accepts one kind of flag on every receipt after a confirmation', async () => {
    const sent = serve([receipt(1, {}), receipt(2, {}), receipt(3, shownIssues([issueFlag('merchantNotFound')]))]);
    await position();
    const kinds = screen.getByRole('region', { name: 'Accept one kind of flag on every receipt' });
    fireEvent.click(within(kinds).getByRole('button', { name: 'Accept on 2 receipts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept this flag on every receipt?' });
    expect(dialog.textContent).toContain(`“${OLD}” will be accepted on 2 receipts`);
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept on 2 receipts' }));
    await waitFor(() => expect(sent).toEqual([{ url: '/api/receipts/flags/accept', body: { kind: OLD } }]));
    expect((await screen.findByText('Receipt 1 of 1', {}, { timeout: 10_000 })).textContent).toBe('Receipt 1 of 1');
    expect(screen.getByText(/receipt-3\.jpg/)).toBeTruthy();
  });

  it('says when nothing is left to review', async () => {
    serve([]);
    expect(await screen.findByText('Nothing to review: every receipt is ready for export.', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
