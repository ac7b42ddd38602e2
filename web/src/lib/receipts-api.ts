import type { ApprovalStatus, EngineName, FlagKindAccepted, Lane, ReceiptDetail, ReceiptPatch } from '@receipts/common';
import { apiJson } from './api.js';

/** The read of one receipt with its lines, where each field was read and its pages: its url is its key. */
export const receiptKey = (id: string) => [`/api/receipts/${id}`] as const;

/** Page `n` (from 0) of a receipt as a picture. */
export const pageUrl = (id: string, n: number) => `/api/receipts/${id}/pages/${n}`;

/** Saves a correction (any field, the items, where fields were read); the server validates again and answers with the receipt. */
export function saveReceipt(id: string, patch: ReceiptPatch): Promise<ReceiptDetail> {
  return apiJson<ReceiptDetail>(`/api/receipts/${id}`, { method: 'PATCH', json: patch });
}

/** Accepts a flag after looking (the receipt is right as it stands), or takes that back. */
export const acceptIssue = (id: string, issue: string) => apiJson<ReceiptDetail>(`/api/receipts/${id}/issues/accept`, { method: 'POST', json: { issue } });
export const reopenIssue = (id: string, issue: string) => apiJson<ReceiptDetail>(`/api/receipts/${id}/issues/reopen`, { method: 'POST', json: { issue } });
/** Accepts one kind of flag (`flagKind`) on every receipt that needs review for it. */
export const acceptFlagKind = (kind: string) => apiJson<FlagKindAccepted>('/api/receipts/flags/accept', { method: 'POST', json: { kind } });

/** The receipts that need a person, newest first (as the library lists them): the review inbox; its total is the count in the nav. */
export const REVIEW_QUEUE_SIZE = 200;
export const reviewQueueUrl = (pageSize = REVIEW_QUEUE_SIZE) => `/api/receipts?valid=false&page=1&pageSize=${pageSize}`;
/** Every read of the receipts (the library, the review inbox and its count), to read again after a change. */
export const isReceiptsQuery = (key: readonly unknown[]) => String(key[0]).startsWith('/api/receipts');

export interface LibraryQuery {
  q?: string;
  from?: string;
  to?: string;
  category?: string;
  tag?: string;
  /** Three-letter code: an import file books in one currency. */
  currency?: string;
  valid?: 'true' | 'false';
  /** A team workspace's receipts in this approval status. */
  approval?: ApprovalStatus;
  page: number;
  pageSize: number;
}

/** The library read for a query: its url is its key, read by the shared query function (spec §7). */
export function libraryUrl(query: LibraryQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  return `/api/receipts?${params.toString()}`;
}

export const deleteReceipt = (id: string) => apiJson<unknown>(`/api/receipts/${id}`, { method: 'DELETE' });
/**
 * Reads the stored original again, with the named engine or the server's default; progress
 * arrives as upload events for the returned upload id.
 */
export const reextractReceipt = (id: string, engine?: EngineName) =>
  apiJson<{ id: string; receiptId: string; status: 'queued'; lane: Lane }>(`/api/receipts/${id}/reextract`, { method: 'POST', json: engine ? { engine } : {} });
