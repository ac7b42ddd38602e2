import { FLAG_KINDS, MAX_UPLOAD_BYTES, quotaExceededMessage, renderIssue, USER_MESSAGES, type IssueField, type IssueFlag } from '@receipts/common';
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

/** Issues' messages grouped by the field they are shown beside; the ones about no single field under `general`. */
export function issuesByField(flags: readonly IssueFlag[]): { byField: Partial<Record<IssueField, string[]>>; general: string[] } {
  const byField: Partial<Record<IssueField, string[]>> = {};
  const general: string[] = [];
  for (const flag of flags) {
    const message = renderIssue(flag);
    // Placed by the issue's code: an issue about several fields is shown once, beside the one it is about.
    const field = FLAG_KINDS[flag.code].field;
    if (field) (byField[field] ??= []).push(message);
    else general.push(message);
  }
  return { byField, general };
}

/** Why a chosen file is refused before it is sent (the server's own limits, checked in the page), or null. */
export function precheckFile(file: Pick<File, 'size'>): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return USER_MESSAGES.fileTooLarge;
  if (file.size === 0) return USER_MESSAGES.fileEmpty;
  return null;
}
