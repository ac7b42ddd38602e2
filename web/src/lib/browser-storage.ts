import type { PendingSubscription } from './login-redirect.js';

/** Storage can be off (private mode, blocked cookies): every access is best effort. */
function read(store: () => Storage, key: string): string | null {
  try {
    return store().getItem(key);
  } catch {
    return null;
  }
}
function write(store: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, value);
  } catch {
    // Nothing to do: the value simply is not remembered.
  }
}
const session = () => window.sessionStorage;
const local = () => window.localStorage;

export const pendingSubscription = {
  get(): PendingSubscription | null {
    const raw = read(session, 'pendingSubscription');
    if (!raw) return null;
    try {
      const v = JSON.parse(raw) as Partial<PendingSubscription>;
      return typeof v.planId === 'string' && typeof v.stripePriceId === 'string' ? { planId: v.planId, stripePriceId: v.stripePriceId } : null;
    } catch {
      return null;
    }
  },
  set(value: PendingSubscription): void {
    write(session, 'pendingSubscription', JSON.stringify(value));
  },
  /** Read once: the pending plan is cleared when it is used. */
  take(): PendingSubscription | null {
    const value = this.get();
    write(session, 'pendingSubscription', null);
    return value;
  },
};

export const subscriptionError = {
  set(message: string): void {
    write(session, 'subscriptionError', message);
  },
  take(): string | null {
    const value = read(session, 'subscriptionError');
    write(session, 'subscriptionError', null);
    return value;
  },
};

export const defaultCurrency = {
  get: (): string | null => read(local, 'defaultCurrency'),
  set: (code: string): void => write(local, 'defaultCurrency', code),
};

const DISMISSED_KEY = 'dismissedUploads';
const DISMISSED_KEEP = 500;

/** Uploads removed from the home list stay removed after a reload (their receipts stay in the library). */
export const dismissedUploads = {
  get(): Set<string> {
    try {
      const list = JSON.parse(read(local, DISMISSED_KEY) ?? '[]') as unknown;
      return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  },
  add(id: string): void {
    const list = [...this.get(), id].slice(-DISMISSED_KEEP);
    write(local, DISMISSED_KEY, JSON.stringify(list));
  },
};

const GREETED_KEY = 'greetedAccounts';

/** Accounts this browser has shown the dashboard to: the first visit says Welcome, the next ones Welcome back. */
export const greetedAccounts = {
  has(email: string): boolean {
    try {
      const list = JSON.parse(read(local, GREETED_KEY) ?? '[]') as unknown;
      return Array.isArray(list) && list.includes(email);
    } catch {
      return false;
    }
  },
  add(email: string): void {
    if (this.has(email)) return;
    let list: unknown = [];
    try {
      list = JSON.parse(read(local, GREETED_KEY) ?? '[]');
    } catch {
      // A damaged entry starts over.
    }
    write(local, GREETED_KEY, JSON.stringify([...(Array.isArray(list) ? list : []), email].slice(-50)));
  },
};
