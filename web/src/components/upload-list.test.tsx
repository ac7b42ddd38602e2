import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUploadStore } from '../stores/upload-store.js';
import { renderAt } from '../test-support.js';
import { UploadList } from './upload-list.js';

const WAITING = '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01';
const BEHIND = '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02';

describe('the upload list', () => {
  let asked: number;
  beforeEach(() => {
    asked = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/uploads/queue') {
          asked += 1;
          return Response.json({
            uploads: [
              { id: WAITING, ahead: 2, waitMs: 30_000 },
              { id: BEHIND, ahead: 3, waitMs: null },
            ],
          });
        }
        return Response.json({ error: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const item = (id: string, filename: string, status: 'queued' | 'completed') => ({ id, filename, status, progress: status === 'completed' ? 100 : 0, step: null, createdAt: Date.now() });

  it('says where a waiting upload is in the queue and about when it is read, as the server measures it', async () => {
    useUploadStore.setState({ items: [item(WAITING, 'a.jpg', 'queued'), item(BEHIND, 'b.jpg', 'queued')] });
    renderAt(<UploadList onRemove={vi.fn()} onDelete={vi.fn()} onUploadAgain={vi.fn()} />);
    expect(await screen.findByText('Waiting in queue · 2 ahead · about 30 s')).toBeTruthy();
    expect(screen.getByText('Waiting in queue · 3 ahead')).toBeTruthy();
  });

  it('narrows the list, and the export of the completed ones, to one currency when they are in several', async () => {
    const done = (id: string, filename: string, currency: string | undefined) => ({
      ...item(id, filename, 'completed'),
      receiptData: { id: `${id.slice(0, -1)}9`, category: 'other', quality: 0.9, items: [], rawText: '', issues: [], flags: [], valid: true, total: 1, ...(currency ? { currency } : {}) },
    });
    useUploadStore.setState({ items: [done(WAITING, 'euro.jpg', 'EUR'), done(BEHIND, 'dollar.jpg', undefined)] });
    renderAt(<UploadList onRemove={vi.fn()} onDelete={vi.fn()} onUploadAgain={vi.fn()} />);
    const currency = await screen.findByLabelText('Currency');
    expect([...(currency as HTMLSelectElement).options].map((o) => o.value)).toEqual(['', 'EUR', 'USD']);
    fireEvent.change(currency, { target: { value: 'EUR' } });
    expect(screen.getAllByTestId('upload-row').map((r) => r.getAttribute('aria-label'))).toEqual(['euro.jpg']);
    fireEvent.change(currency, { target: { value: '' } });
    expect(screen.getAllByTestId('upload-row')).toHaveLength(2);
  });

  it('offers no currency filter when the receipts are in one', async () => {
    useUploadStore.setState({ items: [item(WAITING, 'a.jpg', 'completed')] });
    renderAt(<UploadList onRemove={vi.fn()} onDelete={vi.fn()} onUploadAgain={vi.fn()} />);
    await screen.findByText('Completed');
    expect(screen.queryByLabelText('Currency')).toBeNull();
  });

  it('asks nothing when no upload waits', async () => {
    useUploadStore.setState({ items: [item(WAITING, 'a.jpg', 'completed')] });
    renderAt(<UploadList onRemove={vi.fn()} onDelete={vi.fn()} onUploadAgain={vi.fn()} />);
    await screen.findByText('Completed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toBe(0);
  });
});
