import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { dismissedUploads } from '../lib/browser-storage.js';
import { accountKeys } from '../lib/account-api.js';
import { trackUpload } from '../lib/analytics.js';
import type { UploadMethod } from '../lib/analytics-events.js';
import { isReceiptsQuery } from '../lib/receipts-api.js';
import { precheckFile, uploadErrorMessage } from '../lib/upload-rules.js';
import { ApiError } from '../lib/api.js';
import { cancelUpload, deleteUpload, sendUpload } from '../lib/uploads-api.js';
import { useUploadStore, type UploadItem } from '../stores/upload-store.js';

/** Local ids whose row was removed while the file was still being sent: cancelled once it lands. */
const removedWhileSending = new Set<string>();

async function cancelOnServer(id: string): Promise<void> {
  // Best effort (spec §7): a failure is only logged.
  await cancelUpload(id).catch((err: unknown) => console.warn('cancel failed', err));
}

export function useUploadActions(signedIn: boolean) {
  const client = useQueryClient();

  /** Sends the file of row `localId`; a file uploaded before comes back unread for the person to decide, unless they did. */
  const transmit = useCallback(
    (localId: string, file: File, currencyCode: string, ifDuplicate: 'ask' | 'upload') => {
      const store = useUploadStore.getState;
      sendUpload(file, currencyCode, ifDuplicate).then(
        (accepted) => {
          void client.invalidateQueries({ queryKey: accountKeys.quota });
          if (removedWhileSending.delete(localId)) {
            dismissedUploads.add(accepted.id);
            void cancelOnServer(accepted.id);
            return;
          }
          store().accept(localId, accepted.id);
        },
        (err: unknown) => {
          removedWhileSending.delete(localId);
          if (err instanceof ApiError && err.code === 'DUPLICATE_FILE') {
            // Nothing was read or charged: the file stays here for "Upload again".
            store().patch(localId, { status: 'duplicate', error: err.userMessage, currencyCode });
            return;
          }
          store().patch(localId, { status: 'error', error: uploadErrorMessage(err, signedIn), file: undefined });
          void client.invalidateQueries({ queryKey: accountKeys.quota });
        },
      );
    },
    [client, signedIn],
  );

  const send = useCallback(
    (files: readonly File[], currencyCode: string, method: UploadMethod) => {
      if (files.length === 0) return;
      trackUpload(files, method);
      const store = useUploadStore.getState;
      for (const file of files) {
        const localId = `local-${crypto.randomUUID()}`;
        // Refused here, before a byte is sent: a 13 MB photo would otherwise upload in full to be turned away.
        const refusal = precheckFile(file);
        if (refusal) {
          store().add({ id: localId, filename: file.name, status: 'error', progress: 0, step: null, error: refusal, createdAt: Date.now() });
          continue;
        }
        store().add({ id: localId, filename: file.name, status: 'uploading', progress: 0, step: null, file, createdAt: Date.now() });
        transmit(localId, file, currencyCode, 'ask');
      }
    },
    [transmit],
  );

  /** Uploads a file the server said was uploaded before, as the person chose: read again and flagged a possible duplicate. */
  const uploadAgain = useCallback(
    (item: UploadItem) => {
      if (item.status !== 'duplicate' || !item.file) return;
      useUploadStore.getState().patch(item.id, { status: 'uploading', error: undefined });
      transmit(item.id, item.file, item.currencyCode ?? 'USD', 'upload');
    },
    [transmit],
  );

  /**
   * Removes the row from this list (spec §4: one still uploading or processing is first cancelled
   * on the server). A completed upload's receipt stays in the library and its exports: that is
   * what `discard` is for.
   */
  const remove = useCallback(async (item: UploadItem) => {
    const store = useUploadStore.getState;
    if (item.id.startsWith('local-')) {
      if (item.status === 'uploading') removedWhileSending.add(item.id);
    } else {
      if (item.status === 'queued' || item.status === 'processing') await cancelOnServer(item.id);
      dismissedUploads.add(item.id);
    }
    store().remove(item.id);
  }, []);

  /** Deletes a completed upload on the server, receipt and original file with it, then drops its row. */
  const discard = useCallback(
    async (item: UploadItem) => {
      await deleteUpload(item.id);
      useUploadStore.getState().remove(item.id);
      void client.invalidateQueries({ predicate: (q) => isReceiptsQuery(q.queryKey) });
    },
    [client],
  );

  return { send, uploadAgain, remove, discard };
}
