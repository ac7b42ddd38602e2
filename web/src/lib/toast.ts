import { useSyncExternalStore } from 'react';
import { TOAST_REMOVE_DELAY_MS, toastReducer, type Toast, type ToastAction } from './toast-queue.js';

let state: Toast[] = [];
const listeners = new Set<() => void>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function dispatch(action: ToastAction): void {
  state = toastReducer(state, action);
  for (const l of listeners) l();
}

/** A closed toast leaves the queue after the spec's delay. */
function scheduleRemoval(id: string): void {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      dispatch({ type: 'remove', id });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function toast(input: { title?: string; description?: string; variant?: Toast['variant'] }): string {
  counter += 1;
  const id = String(counter);
  dispatch({ type: 'add', toast: { id, variant: 'default', ...input, open: true } });
  return id;
}

export function dismissToast(id?: string): void {
  dispatch({ type: 'dismiss', id });
  for (const t of state) if (id === undefined || t.id === id) scheduleRemoval(t.id);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
