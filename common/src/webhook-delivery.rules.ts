/**
 * How a webhook delivery is judged and retried. An event's delivery is tried up to
 * `WEBHOOK_RETRY_SCHEDULE_MS.length + 1` times, each wait longer than the one before, the last
 * try about a day after the first; a delivery the user asked for (a redelivery, a test) is tried
 * once. An event's delivery that fails its last try turns its endpoint off when nothing reached
 * the endpoint since that event happened: it has failed for a day, and every event after it is
 * failing too. Its owner is mailed, and turns it on again from the account page.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The waits after each failed attempt of an event's delivery: 10 attempts over 24 h 1 min. */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [MINUTE, 5 * MINUTE, 15 * MINUTE, 40 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR];

/** One attempt can take this long, connecting included; a slower receiver has failed it. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Attempts a delivery gets under `schedule`: the first, then one after each wait. */
export function webhookAttempts(schedule: readonly number[]): number {
  return schedule.length + 1;
}

/** The wait before the next attempt after `failedAttempts` failed ones (1 after the first); null when none is left. */
export function webhookRetryDelayMs(schedule: readonly number[], failedAttempts: number): number | null {
  return failedAttempts >= 1 && failedAttempts <= schedule.length ? schedule[failedAttempts - 1]! : null;
}

export type AttemptVerdict = { ok: true } | { ok: false; error: string };

/**
 * What an answer means: 2xx delivered; a redirect is a failure and never followed (it could
 * lead anywhere, a private address included); anything else is the receiver's failure.
 */
export function answerVerdict(status: number, location?: string | null): AttemptVerdict {
  if (status >= 200 && status < 300) return { ok: true };
  if (status >= 300 && status < 400) return { ok: false, error: `Answered ${status}${location ? ` to ${location.slice(0, 200)}` : ''}; redirects are not followed.` };
  return { ok: false, error: `Answered ${status}.` };
}
