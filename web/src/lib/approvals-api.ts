import type { CreateReportInput, LibraryReceipt, ReportDetail } from '@receipts/common';
import { apiJson, apiPost } from './api.js';

// The submit → approve step (api/src/approvals): reads are query keys that are their urls.

/** What waits for the caller's decision (approvers). */
export const approvalQueueKey = ['/api/approvals'] as const;
/** The caller's own expense reports (members). */
export const myReportsKey = ['/api/reports'] as const;
/** The caller's notifications, for the nav's bell. */
export const notificationsKey = ['/api/notifications'] as const;

/** Every read the approval step changes, to read again after a move. */
const APPROVAL_READS = ['/api/approvals', '/api/reports', '/api/notifications', '/api/receipts'];
export const isApprovalQuery = (key: readonly unknown[]) => APPROVAL_READS.some((url) => String(key[0]).startsWith(url));

export const submitReceipt = (id: string) => apiPost<LibraryReceipt>(`/api/receipts/${id}/submit`);
export const createReport = (input: CreateReportInput) => apiPost<ReportDetail>('/api/reports', input);

/** An approver's decision on a receipt or a whole report; a rejection carries its comment. */
export function decide(what: 'receipts' | 'reports', id: string, decision: 'approve' | 'reject', comment?: string) {
  return apiJson<LibraryReceipt | ReportDetail>(`/api/${what}/${id}/${decision}`, { method: 'POST', json: comment ? { comment } : {} });
}

/** Where a report downloads, as a PDF or a workbook. */
export const reportExportUrl = (id: string, format: 'pdf' | 'xlsx') => `/api/reports/${id}/export?format=${format}`;

/** Marks these notifications (or all) read. */
export const markNotificationsRead = (ids?: string[]) => apiJson<null>('/api/notifications/read', { method: 'POST', json: ids ? { ids } : {} });
