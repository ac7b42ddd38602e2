import type { DuplicateOf, PipelineStep, ReceiptView, UploadView } from '@receipts/common';
import { create } from 'zustand';

/**
 * Spec §3 upload item, with the server's queue state shown as its own status; `duplicate`: a file
 * the owner uploaded before, sent back unread for them to upload again or skip.
 */
export type UploadItemStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'error' | 'duplicate';

export interface UploadItem {
  /** The server's upload id, or a local id (`local-…`) while the file is being sent. */
  id: string;
  filename: string;
  status: UploadItemStatus;
  progress: number;
  /** The worker's current step (common/src/progress.ts), while processing. */
  step: PipelineStep | null;
  file?: File;
  /** The currency the file was sent with, to send it again with (a duplicate uploaded anyway). */
  currencyCode?: string;
  error?: string;
  receiptData?: ReceiptView;
  /** The earlier upload this one probably repeats. */
  duplicateOf?: DuplicateOf;
  createdAt: number;
}

/** How long a finished upload stays on the home list; older ones live in the library. */
export const HOME_LIST_WINDOW_MS = 24 * 3600_000;

export function itemFromView(u: UploadView): UploadItem | null {
  if (u.status === 'cancelled') return null;
  const status: UploadItemStatus = u.status === 'failed' ? 'error' : u.status;
  return {
    id: u.id,
    filename: u.filename,
    status,
    progress: u.status === 'completed' ? 100 : u.progress,
    step: u.status === 'processing' ? u.step : null,
    error: u.error,
    receiptData: u.receipt,
    duplicateOf: u.duplicateOf,
    createdAt: Date.parse(u.createdAt),
  };
}

const ORDER: Record<UploadItemStatus, number> = { uploading: 0, duplicate: 0, queued: 1, processing: 2, completed: 3, error: 3 };

/** Whether `a` is further along than `b`: a later status, or the same with more progress. */
const isFurther = (a: Pick<UploadItem, 'status' | 'progress'>, b: Pick<UploadItem, 'status' | 'progress'>) =>
  ORDER[a.status] > ORDER[b.status] || (a.status === b.status && a.progress > b.progress);

/**
 * A server row we do not list while a file of its name is still being sent from this page: it is
 * most likely that file, whose POST has not answered yet (a busy server lists an upload before the
 * browser hears its id). Shown beside the sending row it was the same file twice, and its Cancel
 * could be clicked before the id arrived. It joins that row when the id comes (accept).
 */
export function isBeingSent(current: readonly UploadItem[], view: Pick<UploadView, 'id' | 'filename'>): boolean {
  return !current.some((i) => i.id === view.id) && current.some((i) => i.status === 'uploading' && i.filename === view.filename);
}

/**
 * Merges the server's list into ours: the server wins for what it knows, unless our row is
 * further along (an event can overtake the sync answer). A row the list does not know is kept:
 * the list may have been read before that upload was accepted. Newest first.
 */
export function mergeServerList(current: readonly UploadItem[], server: readonly UploadView[], dismissed: ReadonlySet<string>, now: number): UploadItem[] {
  const mine = new Map(current.map((i) => [i.id, i]));
  const known = new Set<string>();
  const fromServer: UploadItem[] = [];
  for (const view of server) {
    known.add(view.id);
    if (dismissed.has(view.id) || isBeingSent(current, view)) continue;
    const item = itemFromView(view);
    if (!item) continue;
    const ours = mine.get(view.id);
    if (!ours && now - item.createdAt > HOME_LIST_WINDOW_MS) continue;
    const keepOurs = ours && isFurther(ours, item);
    fromServer.push(keepOurs ? ours : item);
  }
  const unknown = current.filter((i) => !known.has(i.id));
  return [...unknown, ...fromServer].sort((a, b) => (a.status === 'uploading' ? 0 : 1) - (b.status === 'uploading' ? 0 : 1) || b.createdAt - a.createdAt);
}

interface UploadState {
  items: UploadItem[];
  add(item: UploadItem): void;
  patch(id: string, change: Partial<UploadItem>): void;
  /** A sent file got its server id; a sync may have brought that row already. */
  accept(localId: string, id: string): void;
  remove(id: string): void;
  sync(server: readonly UploadView[], dismissed: ReadonlySet<string>): void;
  /** One upload as the server has it now (started in another tab, or its events came first). */
  upsert(view: UploadView, dismissed: ReadonlySet<string>): void;
  reset(): void;
}

/** Progress only moves forward: a late event must not pull a row back. */
export function applyChange<T extends Pick<UploadItem, 'status' | 'progress'>>(current: T, change: Partial<UploadItem>): T {
  const finished = current.status === 'completed' || current.status === 'error';
  if (finished && change.status && change.status !== current.status && ORDER[change.status] < 3) return current;
  if (!finished && change.status === current.status && change.progress !== undefined && change.progress < current.progress) return current;
  return { ...current, ...change };
}

/**
 * Events for an upload whose POST has not answered yet (a busy server can finish a job before
 * the browser hears its id): kept here and applied when the id arrives.
 */
const early = new Map<string, Pick<UploadItem, 'status' | 'progress'> & Partial<UploadItem>>();

/** Keeps what the server said of a file still being sent, unless an event already took it further. */
function hold(id: string, fresh: UploadItem): void {
  const held = early.get(id);
  early.set(id, held && isFurther(held, fresh) ? { ...fresh, ...held } : { ...held, ...fresh });
}

export const useUploadStore = create<UploadState>((set) => ({
  items: [],
  add: (item) => set((s) => ({ items: [item, ...s.items] })),
  patch: (id, change) =>
    set((s) => {
      if (!s.items.some((i) => i.id === id)) {
        early.set(id, applyChange(early.get(id) ?? { status: 'queued', progress: 0 }, change));
        return s;
      }
      return { items: s.items.map((i) => (i.id === id ? applyChange(i, change) : i)) };
    }),
  accept: (localId, id) =>
    set((s) => {
      const local = s.items.find((i) => i.id === localId);
      const pending = early.get(id);
      early.delete(id);
      if (!local) return s;
      if (s.items.some((i) => i.id === id)) return { items: s.items.filter((i) => i.id !== localId) };
      const accepted: UploadItem = { ...local, id, status: 'queued', file: undefined };
      return { items: s.items.map((i) => (i.id === localId ? (pending ? applyChange(accepted, pending) : accepted) : i)) };
    }),
  remove: (id) => set((s) => ({ items: s.items.filter((i) => i.id !== id) })),
  upsert: (view, dismissed) =>
    set((s) => {
      const fresh = dismissed.has(view.id) ? null : itemFromView(view);
      if (fresh && isBeingSent(s.items, view)) {
        hold(view.id, fresh);
        return s;
      }
      early.delete(view.id);
      if (!fresh) return s;
      if (s.items.some((i) => i.id === view.id)) return { items: s.items.map((i) => (i.id === view.id ? applyChange(i, fresh) : i)) };
      return { items: [fresh, ...s.items] };
    }),
  sync: (server, dismissed) =>
    set((s) => {
      // What the server says of a file still being sent waits for its id, like an early event.
      for (const view of server) {
        const item = isBeingSent(s.items, view) && !dismissed.has(view.id) ? itemFromView(view) : null;
        if (item) hold(view.id, item);
      }
      return { items: mergeServerList(s.items, server, dismissed, Date.now()) };
    }),
  reset: () => set({ items: [] }),
}));
