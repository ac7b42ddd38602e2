import { quotaExceededMessage, ISSUE_TEXTS } from '@receipts/common';
import { ApiError } from './api.js';

/**
 * Spec §8 upload failure text: the server's error text, else HTTP {status}, else Upload failed;
 * the daily-limit refusal is worded for signed-in or anonymous visitors.
 */
export function uploadErrorMessage(err: unknown, signedIn: boolean): string {
  if (err instanceof ApiError) {
    if (err.code === 'QUOTA_EXCEEDED' || /daily limit/i.test(err.userMessage)) return quotaExceededMessage(signedIn);
    if (err.code) return err.userMessage;
    if (err.body.trim()) return err.body.trim();
    return `HTTP ${err.status}`;
  }
  return err instanceof Error && err.message && !/fetch|network/i.test(err.message) ? err.message : 'Upload failed';
}

/** Receipt fields a validation issue is about, so the details view can show it beside them. */
export type IssueField = 'merchantName' | 'date' | 'total' | 'subtotal' | 'tax';

export function fieldsOfIssue(issue: string): IssueField[] {
  if (issue === ISSUE_TEXTS.missingKeyFields) return ['merchantName', 'date', 'total'];
  if (issue === ISSUE_TEXTS.invalidDate || issue === ISSUE_TEXTS.dateOutOfRange) return ['date'];
  if (issue === ISSUE_TEXTS.nonPositiveTotal || issue === ISSUE_TEXTS.largeTotal) return ['total'];
  if (issue.startsWith('Total mismatch')) return ['total', 'subtotal', 'tax'];
  if (issue.startsWith('Suspicious tax rate')) return ['tax'];
  return [];
}

/** Issues grouped by the field they are shown beside; the ones about no single field under `general`. */
export function issuesByField(issues: readonly string[]): { byField: Partial<Record<IssueField, string[]>>; general: string[] } {
  const byField: Partial<Record<IssueField, string[]>> = {};
  const general: string[] = [];
  for (const issue of issues) {
    const fields = fieldsOfIssue(issue);
    // An issue about several fields is shown once, beside the first of them.
    const first = fields[0];
    if (!first || issue === ISSUE_TEXTS.missingKeyFields) general.push(issue);
    else (byField[first] ??= []).push(issue);
  }
  return { byField, general };
}
