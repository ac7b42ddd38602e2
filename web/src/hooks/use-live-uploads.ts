import type { ClientToServerEvents, QuotaView, ServerToClientEvents, UploadView } from '@receipts/common';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io, type Socket } from 'socket.io-client';
import { dismissedUploads } from '../lib/browser-storage.js';
import { accountKeys } from '../lib/account-api.js';
import { trackOcrResult } from '../lib/analytics.js';
import { isReceiptsQuery } from '../lib/receipts-api.js';
import { getUpload, listUploads } from '../lib/uploads-api.js';
import { useUploadStore } from '../stores/upload-store.js';

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Keeps the upload list live: the server pushes every step over Socket.IO, and on every
 * (re)connect the list is synced from the database, so a reload or a second tab shows the
 * same state. `identity` changes when the visitor signs in or out (a new session cookie).
 */
export function useLiveUploads(identity: string): void {
  const client = useQueryClient();
  useEffect(() => {
    let socket: LiveSocket | null = null;
    let closed = false;
    const store = useUploadStore.getState;
    const sync = (list: UploadView[]) => store().sync(list, dismissedUploads.get());
    const fetching = new Set<string>();
    /** An event about an upload this page does not list yet: ask for it once it has settled a little. */
    const learn = (id: string) => {
      if (store().items.some((i) => i.id === id) || fetching.has(id)) return;
      fetching.add(id);
      setTimeout(() => {
        void getUpload(id)
          .then((view) => store().upsert(view, dismissedUploads.get()))
          .catch(() => undefined)
          .finally(() => fetching.delete(id));
      }, 300);
    };
    // A first /api call gives the visitor a session cookie; the socket then rides on it.
    void listUploads()
      .then(sync)
      .catch(() => undefined)
      .finally(() => {
        if (closed) return;
        // WebSocket first: one connection to one api process, so api processes behind a proxy (or
        // API_PROCESSES) need no sticky sessions; long-polling only where WebSocket cannot connect.
        socket = io({ withCredentials: true, transports: ['websocket', 'polling'], tryAllTransports: true });
        socket.on('connect', () => socket?.emit('uploads:sync', sync));
        socket.on('upload:progress', (e) => {
          learn(e.id);
          store().patch(e.id, { status: 'processing', progress: e.progress, step: e.step });
        });
        socket.on('upload:completed', (e) => {
          learn(e.id);
          store().patch(e.id, { status: 'completed', progress: 100, step: null, receiptData: e.receipt, duplicateOf: e.duplicateOf, error: undefined });
          trackOcrResult(e.receipt);
          // A new receipt: the library, the review inbox and its count in the nav read again (those on screen).
          void client.invalidateQueries({ predicate: (q) => isReceiptsQuery(q.queryKey) });
        });
        socket.on('upload:failed', (e) => {
          learn(e.id);
          store().patch(e.id, { status: 'error', step: null, error: e.error });
        });
        socket.on('upload:cancelled', (e) => store().remove(e.id));
        socket.on('quota:updated', (quota: QuotaView) => client.setQueryData(accountKeys.quota, quota));
      });
    return () => {
      closed = true;
      socket?.close();
    };
  }, [identity, client]);
}
