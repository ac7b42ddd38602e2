import type { SpendingReportQuery } from '@receipts/common';

/** Reads of the workspace a session acts in: its quota's use per member and its spending reports (spec §7: a key is its url). */
export const workspacePlanKeys = {
  /** `WorkspaceUsage`: the workspace's quota and each member's units this period. */
  usage: ['/api/workspaces/current/usage'] as const,
};

/** Where the app shows the workspace's spending reports (those who may read them find it in the account menu and on the dashboard). */
export const REPORTS_PAGE_PATH = '/workspace/reports';

/** What a report may be narrowed to, as the page keeps it (GET /api/workspaces/current/reports takes the same). */
export type ReportFilter = Partial<Record<keyof SpendingReportQuery, string>>;

/** The report read for a filter: its url is its key. */
export function spendingReportUrl(filter: ReportFilter): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) params.set(k, v);
  const query = params.toString();
  return `/api/workspaces/current/reports${query ? `?${query}` : ''}`;
}
