import type { LibraryQuery } from './receipts-api.js';

/** The library filters the spending charts follow (GET /api/receipts/spending takes the same ones). */
export type SpendingFilter = Partial<Pick<LibraryQuery, 'q' | 'from' | 'to' | 'category' | 'tag' | 'currency' | 'valid'>>;

/** The spending read for a filter: its url is its key, read by the shared query function (spec §7). */
export function spendingUrl(filter: SpendingFilter): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') params.set(k, String(v));
  const query = params.toString();
  return `/api/receipts/spending${query ? `?${query}` : ''}`;
}
