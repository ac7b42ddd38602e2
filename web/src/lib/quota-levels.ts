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

const DAY_MS = 86_400_000;
const localDay = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());

/**
 * Calendar days from today until `resetDate`, in the viewer's own calendar (at least 0): a reset
 * at midnight tonight is tomorrow's date, so it is 1 day away, never "today".
 */
export function daysUntil(resetDate: string, now: Date = new Date()): number {
  const reset = new Date(resetDate);
  if (!Number.isFinite(reset.getTime())) return 0;
  return Math.max(0, Math.round((localDay(reset) - localDay(now)) / DAY_MS));
}

/** The Quota Reset card's value: Today, Tomorrow, or N days. */
export function resetLabel(resetDate: string, now: Date = new Date()): string {
  const days = daysUntil(resetDate, now);
  return days === 0 ? 'Today' : days === 1 ? 'Tomorrow' : `${days} days`;
}
