import type { EngineName, Lane, ReceiptDetail, ReceiptPatch, ReceiptView } from '@receipts/common';
import { apiJson } from './api.js';

/** The fields the details view lets a person correct (a subset of PATCH /api/receipts/:id). */
export type ReceiptCorrection = Pick<
  ReceiptPatch,
  'merchantName' | 'date' | 'time' | 'paymentMethod' | 'currency' | 'category' | 'subtotal' | 'tax' | 'tip' | 'discount' | 'total'
>;

/** Saves a correction; the server validates the receipt again and answers with it. */
export function saveReceipt(id: string, patch: ReceiptCorrection): Promise<ReceiptView> {
  return apiJson<ReceiptDetail>(`/api/receipts/${id}`, { method: 'PATCH', json: patch });
}

export interface LibraryQuery {
  q?: string;
  from?: string;
  to?: string;
  category?: string;
  valid?: 'true' | 'false';
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
