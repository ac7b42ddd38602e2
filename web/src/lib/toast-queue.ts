/** Spec §4 notifications: one visible at a time, dismissible, forgotten after a very long delay. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** How long a toast stays open before it closes itself (spec §9 default duration). */
export const TOAST_DURATION_MS = 5000;

export interface Toast {
  id: string;
  title?: string;
  description?: string;
  variant: 'default' | 'destructive';
  open: boolean;
}

export type ToastAction =
  | { type: 'add'; toast: Toast }
  | { type: 'dismiss'; id?: string }
  | { type: 'remove'; id?: string };

/** The newest toast first, and never more than TOAST_LIMIT of them. */
export function toastReducer(state: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'add':
      return [action.toast, ...state].slice(0, TOAST_LIMIT);
    case 'dismiss':
      return state.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t));
    case 'remove':
      return action.id === undefined ? [] : state.filter((t) => t.id !== action.id);
  }
}
