import { z } from 'zod';

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
