import { USER_MESSAGES } from '@receipts/common';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadList } from '../components/upload-list.js';
import { useUploadStore } from '../stores/upload-store.js';
import { renderAt } from '../test-support.js';
import { useUploadActions } from './use-upload-actions.js';

const EARLIER = { uploadId: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01', filename: 'receipt.jpg', uploadedAt: '2026-11-28T10:00:00.000Z' };
const ACCEPTED = { id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02', status: 'queued', lane: 'standard' };

/** The uploader's list with its actions, and a way in for files. */
function Uploader({ files }: { files: File[] }) {
  const { send, uploadAgain, remove, discard } = useUploadActions(false);
  return (
    <>
      <button type="button" onClick={() => send(files, 'EUR', 'picker')}>
        Send
      </button>
      <UploadList onRemove={(item) => void remove(item)} onDelete={(item) => void discard(item)} onUploadAgain={uploadAgain} />
    </>
  );
}

describe('a file uploaded before', () => {
  let sent: Array<Record<string, string>>;
  beforeEach(() => {
    sent = [];
    useUploadStore.setState({ items: [] });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/ocr') {
          const form = init!.body as FormData;
          sent.push({ ifDuplicate: String(form.get('ifDuplicate')), currencyCode: String(form.get('currencyCode')) });
          if (form.get('ifDuplicate') === 'ask') {
            return Response.json({ error: 'DUPLICATE_FILE', message: USER_MESSAGES.duplicateFile(EARLIER.filename, '2026-11-28'), duplicateOf: EARLIER }, { status: 409 });
          }
          return Response.json(ACCEPTED, { status: 202 });
        }
        return Response.json({ error: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('comes back unread, says when it came, and is sent again only when the person asks', async () => {
    renderAt(<Uploader files={[new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'again.jpg', { type: 'image/jpeg' })]} />);
    screen.getByRole('button', { name: 'Send' }).click();
    await screen.findByText('Uploaded before');
    expect(screen.getByText(USER_MESSAGES.duplicateFile(EARLIER.filename, '2026-11-28'))).toBeTruthy();
    expect(sent).toEqual([{ ifDuplicate: 'ask', currencyCode: 'EUR' }]);

    screen.getByRole('button', { name: 'Upload again.jpg again' }).click();
    await waitFor(() => expect(useUploadStore.getState().items[0]).toMatchObject({ id: ACCEPTED.id, status: 'queued' }));
    expect(sent).toEqual([
      { ifDuplicate: 'ask', currencyCode: 'EUR' },
      { ifDuplicate: 'upload', currencyCode: 'EUR' },
    ]);
  });

  it('is dropped from the list by Skip, nothing sent again', async () => {
    renderAt(<Uploader files={[new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'again.jpg', { type: 'image/jpeg' })]} />);
    screen.getByRole('button', { name: 'Send' }).click();
    (await screen.findByRole('button', { name: 'Skip again.jpg' })).click();
    await waitFor(() => expect(useUploadStore.getState().items).toEqual([]));
    expect(sent).toHaveLength(1);
  });
});
