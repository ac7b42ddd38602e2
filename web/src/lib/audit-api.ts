import type { AuditAction, AuditPage } from '@receipts/common';
import { apiJson } from './api.js';

/** The audit page's filters: one kind of act, one member (by id); none: everything. */
export interface AuditFilters {
  action?: AuditAction;
  actor?: string;
}

const AUDIT_URL = '/api/workspaces/current/audit';
/** Where the app shows the trail (its owners and admins find it in the account menu). */
export const AUDIT_PAGE_PATH = '/workspace/audit';

/** Reads of a workspace's audit trail (read page by page with readAuditPage, not the shared query function). */
export const auditKeys = {
  trail: (workspaceId: string, filters: AuditFilters) => [AUDIT_URL, workspaceId, filters] as const,
};

/** One page of the trail, after `cursor` (the previous page's `next`). */
export function readAuditPage(filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
  const query = new URLSearchParams();
  if (filters.action) query.set('action', filters.action);
  if (filters.actor) query.set('actor', filters.actor);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return apiJson<AuditPage>(`${AUDIT_URL}${search ? `?${search}` : ''}`, { signal });
}
