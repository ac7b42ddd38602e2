import type { LibraryReceipt, ReceiptDetail, ReceiptList, ReceiptPatch, ReceiptView } from '@receipts/common';
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

export function libraryUrl(query: LibraryQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  return `/api/receipts?${params.toString()}`;
}

export const listReceipts = (query: LibraryQuery) => apiJson<ReceiptList>(libraryUrl(query));
export const deleteReceipt = (id: string) => apiJson<unknown>(`/api/receipts/${id}`, { method: 'DELETE' });
export const reextractReceipt = (id: string) => apiJson<LibraryReceipt>(`/api/receipts/${id}/reextract`, { method: 'POST', json: {} });
