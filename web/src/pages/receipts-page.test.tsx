import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { EngineName, LibraryReceipt } from '@receipts/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { ReceiptsPage } from './receipts-page.js';

const receipt: LibraryReceipt = {
  id: '0b7c1d6e-3f35-4c55-8f0e-6f1c2a4b9d10',
  uploadId: '5a1f8c2e-7d44-4b1a-9c3e-2e8f6d0b7a21',
  filename: 'cafe.jpg',
  uploadStatus: 'completed',
  uploadedAt: '2026-03-14T09:45:00.000Z',
  updatedAt: '2026-03-14T09:45:10.000Z',
  edited: false,
  originalAvailable: true,
  approval: { status: 'not-required', comment: null, decidedBy: null, decidedAt: null, submittedAt: null, reportId: null },
  merchantName: 'Caffè Roma',
  date: '2026-03-14',
  total: 5,
  category: 'restaurant',
  quality: 0.8,
  items: [],
  rawText: '',
  issues: [],
  flags: [],
  valid: true,
};

/** The page against a server running `engines`; returns the bodies of the re-extract requests. */
function renderWith(engines: EngineName[], asked: string[] = []) {
  const reextracts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      asked.push(url);
      if (url === '/api/config') return new Response(JSON.stringify({ analyticsMeasurementId: null, engines }));
      if (url.startsWith('/api/receipts?')) return new Response(JSON.stringify({ items: [receipt], total: 1, page: 1, pageSize: 25, currencies: ['EUR', 'MDL'] }));
      if (url.endsWith('/reextract')) {
        reextracts.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify({ id: receipt.uploadId, receiptId: receipt.id, status: 'queued', lane: 'standard' }), { status: 202 });
      }
      return new Response(JSON.stringify({ error: 'NOT_FOUND', message: 'Not found' }), { status: 404 });
    }),
  );
  renderAt(<ReceiptsPage />, '/receipts');
  return reextracts;
}

/** The first row's Re-extract (the table and the narrow screens' cards both have one; the CSS shows one of them). */
const reextractButton = async () => (await screen.findAllByRole('button', { name: 'Re-extract' }, { timeout: 10_000 }))[0]!;

describe('re-extracting with an engine', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers no choice when the server runs one engine, and asks for its default', async () => {
    const reextracts = renderWith(['local']);
    fireEvent.click(await reextractButton());
    await waitFor(() => expect(reextracts).toEqual([{}]));
    expect(screen.queryByLabelText(/Re-extract with/)).toBeNull();
  });

  it('lists only the engines the server runs, the default first, and sends the one picked', async () => {
    const reextracts = renderWith(['local', 'vlm']);
    const choice = await screen.findByLabelText(/Re-extract with/, {}, { timeout: 10_000 });
    expect([...choice.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Local OCR (default)', 'Vision model']);
    fireEvent.change(choice, { target: { value: 'vlm' } });
    fireEvent.click(await reextractButton());
    await waitFor(() => expect(reextracts).toEqual([{ engine: 'vlm' }]));
  });
});

describe('filtering by currency', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers the currencies the receipts are in, and lists and exports only the one chosen', async () => {
    const asked: string[] = [];
    renderWith(['local'], asked);
    const currency = await screen.findByLabelText('Currency', {}, { timeout: 10_000 });
    await waitFor(() => expect([...currency.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['All', 'EUR — Euro', 'MDL']));
    fireEvent.change(currency, { target: { value: 'MDL' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(asked.some((u) => u.startsWith('/api/receipts?') && new URLSearchParams(u.split('?')[1]).get('currency') === 'MDL')).toBe(true));
    expect(await screen.findByRole('button', { name: /Export matching/ }, { timeout: 10_000 })).toBeTruthy();
  });
});
