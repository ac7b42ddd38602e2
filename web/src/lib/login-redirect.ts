/** The plan a visitor chose before signing in (spec §3, kept in session storage). */
export interface PendingSubscription {
  planId: string;
  stripePriceId: string;
}

/**
 * A redirect target we may follow: a path on this site. The spec's rule is "starts with / and
 * has no ://"; a second leading slash or backslash is refused too, since browsers read
 * `//host` and `/\host` as another site.
 */
export function isLocalPath(target: string | null | undefined): target is string {
  return typeof target === 'string' && target.startsWith('/') && !target.includes('://') && !/^\/[/\\]/.test(target);
}

export function subscribePath(planId: string, stripePriceId: string): string {
  return `/subscribe?${new URLSearchParams({ plan: planId, price: stripePriceId }).toString()}`;
}

/** Spec §4: the redirect query if local, else the pending subscription's checkout, else the dashboard. */
export function loginDestination(redirect: string | null | undefined, pending: PendingSubscription | null): string {
  if (isLocalPath(redirect)) return redirect;
  if (pending) return subscribePath(pending.planId, pending.stripePriceId);
  return '/dashboard';
}

export function loginPathFor(redirect: string): string {
  return `/login?${new URLSearchParams({ redirect }).toString()}`;
}
