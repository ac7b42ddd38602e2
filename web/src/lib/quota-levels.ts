/** Spec §4 / §9 quota thresholds. */
export const QUOTA_WARNING_HIGH = 80;
export const QUOTA_WARNING_CRITICAL = 90;
export const QUOTA_COLOUR_ORANGE = 75;
export const QUOTA_COLOUR_RED = 90;

export type QuotaWarning = { level: 'high'; title: 'High Usage Warning' } | { level: 'critical'; title: 'Quota Almost Exhausted' };

/** No warning below 80 %, High Usage Warning at 80-89 %, Quota Almost Exhausted from 90 %. */
export function quotaWarning(percentage: number): QuotaWarning | null {
  if (percentage >= QUOTA_WARNING_CRITICAL) return { level: 'critical', title: 'Quota Almost Exhausted' };
  if (percentage >= QUOTA_WARNING_HIGH) return { level: 'high', title: 'High Usage Warning' };
  return null;
}

/** Green below 75 %, orange 75-89 %, red from 90 %. */
export function quotaColour(percentage: number): 'green' | 'orange' | 'red' {
  if (percentage >= QUOTA_COLOUR_RED) return 'red';
  if (percentage >= QUOTA_COLOUR_ORANGE) return 'orange';
  return 'green';
}

/** Whole days until `resetDate` (at least 0; a reset later today counts as 0). */
export function daysUntil(resetDate: string, now: Date = new Date()): number {
  const ms = new Date(resetDate).getTime() - now.getTime();
  return Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 86_400_000)) : 0;
}
