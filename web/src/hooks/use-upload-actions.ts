import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { dismissedUploads } from '../lib/browser-storage.js';
import { accountKeys } from '../lib/account-api.js';
import { trackUpload } from '../lib/analytics.js';
import { uploadErrorMessage } from '../lib/upload-rules.js';
import { cancelUpload, sendUpload } from '../lib/uploads-api.js';
import { useUploadStore, type UploadItem } from '../stores/upload-store.js';

/** Local ids whose row was removed while the file was still being sent: cancelled once it lands. */
const removedWhileSending = new Set<string>();

async function cancelOnServer(id: string): Promise<void> {
  // Best effort (spec §7): a failure is only logged.
  await cancelUpload(id).catch((err: unknown) => console.warn('cancel failed', err));
}

export function useUploadActions(signedIn: boolean) {
  const client = useQueryClient();

  const send = useCallback(
    (files: readonly File[], currencyCode: string, method: 'drop' | 'picker') => {
      if (files.length === 0) return;
      trackUpload(files, method);
      const store = useUploadStore.getState;
      for (const file of files) {
        const localId = `local-${crypto.randomUUID()}`;
        store().add({ id: localId, filename: file.name, status: 'uploading', progress: 0, step: null, file, createdAt: Date.now() });
        sendUpload(file, currencyCode).then(
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
            store().patch(localId, { status: 'error', error: uploadErrorMessage(err, signedIn), file: undefined });
            void client.invalidateQueries({ queryKey: accountKeys.quota });
          },
        );
      }
    },
    [client, signedIn],
  );

  /** Removing a row that is still uploading or processing first asks the server to cancel it (spec §4). */
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

  return { send, remove };
}
