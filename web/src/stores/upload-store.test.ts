import type { UploadView } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { isBeingSent, mergeServerList, useUploadStore, type UploadItem } from './upload-store.js';

const now = Date.parse('2025-03-01T12:00:00Z');
const view = (id: string, over: Partial<UploadView> = {}): UploadView => ({
  id,
  filename: `${id}.jpg`,
  mimeType: 'image/jpeg',
  size: 1,
  status: 'queued',
  progress: 0,
  step: null,
  lane: 'standard',
  createdAt: new Date(now - 60_000).toISOString(),
  updatedAt: new Date(now).toISOString(),
  ...over,
});
const item = (id: string, over: Partial<UploadItem> = {}): UploadItem => ({ id, filename: `${id}.jpg`, status: 'queued', progress: 0, step: null, createdAt: now, ...over });

describe('merging the server list into the upload list', () => {
  it('maps server states and leaves out cancelled, dismissed and old uploads', () => {
    const merged = mergeServerList(
      [],
      [
        view('a', { status: 'processing', progress: 40, step: 'recognizing' }),
        view('b', { status: 'failed', error: 'Unreadable' }),
        view('c', { status: 'cancelled' }),
        view('d'),
        view('e', { createdAt: new Date(now - 3 * 86_400_000).toISOString() }),
      ],
      new Set(['d']),
      now,
    );
    expect(merged.map((i) => [i.id, i.status, i.progress])).toEqual([
      ['a', 'processing', 40],
      ['b', 'error', 0],
    ]);
    expect(merged[1]!.error).toBe('Unreadable');
  });

  it('keeps a row that is further along than the sync answer, and files still being sent', () => {
    const current = [item('local-1', { status: 'uploading' }), item('a', { status: 'processing', progress: 70 })];
    const merged = mergeServerList(current, [view('a', { status: 'processing', progress: 40 })], new Set(), now);
    expect(merged.map((i) => [i.id, i.progress])).toEqual([
      ['local-1', 0],
      ['a', 70],
    ]);
  });

  it('keeps rows the server list does not know yet (the list was read before they were accepted)', () => {
    const current = [item('a', { status: 'queued', createdAt: now - 1000 }), item('local-2', { status: 'error', error: 'Upload failed', createdAt: now - 500 })];
    const merged = mergeServerList(current, [view('b', { status: 'completed', progress: 100 })], new Set(), now);
    expect(merged.map((i) => i.id)).toEqual(['local-2', 'a', 'b']);
  });

  it('leaves out an unknown row of the same name as a file still being sent, and shows it once none is', () => {
    const sending = item('local-1', { filename: 'x.jpg', status: 'uploading' });
    const server = [view('s1', { filename: 'x.jpg' }), view('s2', { filename: 'y.jpg' })];
    expect(isBeingSent([sending], server[0]!)).toBe(true);
    expect(mergeServerList([sending], server, new Set(), now).map((i) => i.id)).toEqual(['local-1', 's2']);
    // A row already listed under its id is merged as before, whatever is being sent.
    expect(mergeServerList([sending, item('s1', { filename: 'x.jpg' })], server, new Set(), now).map((i) => i.id).sort()).toEqual(['local-1', 's1', 's2']);
    const failed = { ...sending, status: 'error' as const };
    expect(mergeServerList([failed], server, new Set(), now).map((i) => i.id).sort()).toEqual(['local-1', 's1', 's2']);
  });

  it('drops a row the server says was cancelled', () => {
    const merged = mergeServerList([item('a', { status: 'processing', progress: 40 })], [view('a', { status: 'cancelled' })], new Set(), now);
    expect(merged).toEqual([]);
  });

  it('lets the server finish a row', () => {
    const merged = mergeServerList([item('a', { status: 'processing', progress: 95 })], [view('a', { status: 'completed', progress: 100 })], new Set(), now);
    expect(merged[0]!.status).toBe('completed');
  });
});

describe('the upload store', () => {
  it('keeps events that arrive before the upload’s id and applies them when it does', () => {
    const store = useUploadStore.getState;
    store().reset();
    store().add(item('local-1', { status: 'uploading' }));
    store().patch('srv-1', { status: 'processing', progress: 50, step: 'recognized' });
    store().patch('srv-1', { status: 'completed', progress: 100, step: null });
    store().patch('srv-1', { status: 'processing', progress: 95, step: 'saving' });
    store().accept('local-1', 'srv-1');
    expect(store().items.map((i) => [i.id, i.status, i.progress])).toEqual([['srv-1', 'completed', 100]]);
  });

  it('lists an upload once when the server shows it before its POST answers, with the server’s state', () => {
    const store = useUploadStore.getState;
    store().reset();
    store().add(item('local-1', { filename: 'x.jpg', status: 'uploading' }));
    store().add(item('local-2', { filename: 'y.jpg', status: 'uploading' }));
    store().sync([view('srv-1', { filename: 'x.jpg', status: 'processing', progress: 30, step: 'recognizing' })], new Set());
    store().patch('srv-2', { status: 'processing', progress: 60, step: 'recognizing' });
    // An upsert read before that event must not pull the held state back.
    store().upsert(view('srv-2', { filename: 'y.jpg' }), new Set());
    expect(store().items.map((i) => [i.id, i.status])).toEqual([
      ['local-2', 'uploading'],
      ['local-1', 'uploading'],
    ]);
    store().accept('local-1', 'srv-1');
    store().accept('local-2', 'srv-2');
    expect(store().items.map((i) => [i.id, i.status, i.progress])).toEqual([
      ['srv-2', 'processing', 60],
      ['srv-1', 'processing', 30],
    ]);
  });

  it('never moves a row backwards', () => {
    const store = useUploadStore.getState;
    store().reset();
    store().add(item('a', { status: 'processing', progress: 70 }));
    store().patch('a', { status: 'processing', progress: 40 });
    expect(store().items[0]!.progress).toBe(70);
    store().patch('a', { status: 'error', error: 'Unreadable' });
    store().patch('a', { status: 'processing', progress: 85 });
    expect(store().items[0]!.status).toBe('error');
  });
});
