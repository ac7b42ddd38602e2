import { CATEGORIES, FREE_DAILY_LIMIT, type CategoryList, type QuotaView, type SubscriptionView, type UserProfile, type WorkspaceUsage } from '@receipts/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { accountKeys } from '../lib/account-api.js';
import { signOut } from '../lib/auth-api.js';
import { workspacePlanKeys } from '../lib/workspace-plan-api.js';

/** The signed-in user, or null for an anonymous visitor (a failed profile call means anonymous). */
export function useProfile() {
  const query = useQuery<UserProfile | null>({ queryKey: accountKeys.profile, meta: { silent: true } });
  return { profile: query.data ?? null, loading: query.isPending, signedIn: Boolean(query.data) };
}

/** The categories a receipt can be filed under: the built-in six, and a signed-in user's own after them. */
export function useCategoryNames(): string[] {
  const { signedIn } = useProfile();
  const query = useQuery<CategoryList>({ queryKey: accountKeys.categories, enabled: signedIn, meta: { silent: true } });
  return query.data?.categories.map((c) => c.name) ?? [...CATEGORIES];
}

/** Until the quota loads, the anonymous default applies: 0 used of 5 (spec §7). */
export function anonymousQuota(now = new Date()): QuotaView {
  return { used: 0, limit: FREE_DAILY_LIMIT, percentage: 0, canProcess: true, resetDate: new Date(now.getTime() + 24 * 3600_000).toISOString() };
}

export const QUOTA_REFETCH_MS = 60_000;

export function useQuota() {
  const query = useQuery<QuotaView | null>({ queryKey: accountKeys.quota, refetchInterval: QUOTA_REFETCH_MS });
  return { quota: query.data ?? anonymousQuota(), loaded: query.isSuccess && Boolean(query.data) };
}

export function useSubscription(enabled: boolean) {
  const query = useQuery<SubscriptionView | null>({ queryKey: accountKeys.subscription, enabled, meta: { silent: true } });
  return { subscription: query.data ?? null, loading: enabled && query.isPending };
}

/** The workspace's quota and its use per member this period, with the caller's role there; refetched with the quota. */
export function useWorkspaceUsage(enabled: boolean) {
  const query = useQuery<WorkspaceUsage | null>({ queryKey: workspacePlanKeys.usage, enabled, refetchInterval: QUOTA_REFETCH_MS, meta: { silent: true } });
  return { usage: query.data ?? null };
}

const ACCOUNT_KEYS = [accountKeys.profile, accountKeys.subscription, accountKeys.quota, workspacePlanKeys.usage];

/**
 * After signing in or out the account reads start over. A read still unanswered was sent with the
 * session before: it is cancelled first, as TanStack Query's refetch joins an in-flight read of a
 * query that has no data yet instead of sending a new one. Without that, a sign-in while the page's
 * first profile read (or its retry) was under way took that read's anonymous answer, and the
 * dashboard sent the user, signed in, back to the sign-in page (issue 15's flake).
 */
export function useRefreshAccount() {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all(ACCOUNT_KEYS.map((queryKey) => client.cancelQueries({ queryKey })));
    return Promise.all(ACCOUNT_KEYS.map((queryKey) => client.invalidateQueries({ queryKey, refetchType: 'all' })));
  }, [client]);
}

/** Logout: clears the account caches and reloads the whole page at / (spec §4). */
export function useLogout() {
  const client = useQueryClient();
  const [pending, setPending] = useState(false);
  const logout = useCallback(async () => {
    setPending(true);
    try {
      await signOut();
    } finally {
      for (const queryKey of ACCOUNT_KEYS) client.removeQueries({ queryKey });
      window.location.assign('/');
    }
  }, [client]);
  return { logout, pending };
}
