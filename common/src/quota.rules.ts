import { z } from 'zod';
import { actingWorkspace, type WorkspaceScope } from './workspace-policy.rule.js';

export const FREE_DAILY_LIMIT = 5;

export const quotaViewSchema = z.object({
  used: z.number().int(),
  limit: z.number().int(),
  percentage: z.number(),
  canProcess: z.boolean(),
  resetDate: z.string(),
});
export type QuotaView = z.infer<typeof quotaViewSchema>;

/** A quota window: its key in storage and when it resets. */
export interface QuotaPeriod {
  key: string;
  resetsAt: Date;
}

/** Free quotas reset at midnight UTC. */
export function dailyPeriod(now: Date): QuotaPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { key: `day:${start.toISOString().slice(0, 10)}`, resetsAt: new Date(start.getTime() + 24 * 3600 * 1000) };
}

/** A subscriber's quota runs with their billing period. */
export function billingPeriod(periodStart: Date, periodEnd: Date): QuotaPeriod {
  return { key: `month:${periodStart.toISOString()}`, resetsAt: periodEnd };
}

export function quotaView(used: number, limit: number, resetsAt: Date): QuotaView {
  return {
    used,
    limit,
    percentage: limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100,
    canProcess: used < limit,
    resetDate: resetsAt.toISOString(),
  };
}

/** Spec §8: the limit message, by whether the visitor is signed in. */
export function quotaExceededMessage(signedIn: boolean): string {
  return signedIn
    ? `Exceed daily limit of ${FREE_DAILY_LIMIT} receipts. Please upgrade to premium`
    : `Daily limit of ${FREE_DAILY_LIMIT} receipts exceeded. Sign up for more!`;
}

/** A subscription that pays for processing now: spec §6 "Subscriber (isActive)". */
export function isSubscriptionActive(sub: { status: string; currentPeriodEnd: Date } | null | undefined, now: Date): boolean {
  return Boolean(sub && (sub.status === 'active' || sub.status === 'trialing') && sub.currentPeriodEnd > now);
}

/** Who asks for a unit: an account, or an anonymous session, seen from a client address. */
export interface QuotaAsker {
  userId: string | null;
  anonId: string | null;
  clientIp?: string | null;
  /** The workspace an account acts in (its uploads go there); none for an anonymous visitor. */
  workspace?: WorkspaceScope | null;
}

/**
 * What an account brings to its quota: the plan of the workspace it acts in, if any (a
 * workspace's plan is shared by its members), and whether its address is confirmed.
 */
export interface QuotaAccount {
  subscription: { status: string; currentPeriodStart: Date; currentPeriodEnd: Date; receiptLimit: number } | null;
  confirmed: boolean;
}

/** The quota terms that hold for an asker: every subject must have room, `limit` units each in `period`. */
export interface QuotaTerms {
  subjects: string[];
  limit: number;
  period: QuotaPeriod;
  subscriptionActive: boolean;
}

const ADDRESS_SUBJECT = 'ip:';

/** The subject a subscribed workspace's units are counted under: one count for all its members. */
export const workspaceSubject = (workspaceId: string): string => `workspace:${workspaceId}`;

/**
 * The quota an asker gets. A workspace with a paid plan: every member's uploads there draw from
 * the workspace's one monthly count, whatever their address's state (only checkout needs a
 * confirmed one). Otherwise the free daily allowance, counted per account (the same five a day
 * in every workspace it acts in) or session and, for an anonymous visitor or an account whose
 * address is unconfirmed, also per client address: throwaway accounts and sessions share the
 * address's allowance and add no receipts. `account` is null for an anonymous visitor (and for an
 * account that is gone).
 */
export function quotaTerms(asker: QuotaAsker, account: QuotaAccount | null, now: Date): QuotaTerms {
  const address = asker.clientIp ? [`${ADDRESS_SUBJECT}${asker.clientIp}`] : [];
  const free = (subjects: string[]): QuotaTerms => ({ subjects, limit: FREE_DAILY_LIMIT, period: dailyPeriod(now), subscriptionActive: false });
  const workspace = actingWorkspace(asker);
  if (!asker.userId || !workspace) return free([`anon:${asker.anonId}`, ...address]);
  const subscription = account?.subscription;
  if (subscription && isSubscriptionActive(subscription, now)) {
    const period = billingPeriod(subscription.currentPeriodStart, subscription.currentPeriodEnd);
    return { subjects: [workspaceSubject(workspace.id)], limit: subscription.receiptLimit, period, subscriptionActive: true };
  }
  return free([`user:${asker.userId}`, ...(account?.confirmed ? [] : address)]);
}

/** The client address a unit was counted under (anonymous or unconfirmed), from the subjects it was charged to. */
export function chargedAddress(subjects: readonly string[]): string | null {
  return subjects.find((s) => s.startsWith(ADDRESS_SUBJECT))?.slice(ADDRESS_SUBJECT.length) ?? null;
}

/** The units an asker has used: its fullest subject's (an address shared with others can be fuller than the session). */
export function quotaUsed(usedPerSubject: readonly number[]): number {
  return Math.max(0, ...usedPerSubject);
}
