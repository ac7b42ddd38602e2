import type { UploadView } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { mergeServerList, type UploadItem } from './upload-store.js';

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

  it('lets the server finish a row', () => {
    const merged = mergeServerList([item('a', { status: 'processing', progress: 95 })], [view('a', { status: 'completed', progress: 100 })], new Set(), now);
    expect(merged[0]!.status).toBe('completed');
  });
});
