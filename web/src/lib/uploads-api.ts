import type { UploadAccepted, UploadView } from '@receipts/common';
import { apiJson } from './api.js';

// The upload calls send a JSON content type with no body, as spec §7 has it for cancel.
const emptyJsonPost = { method: 'POST', headers: { 'Content-Type': 'application/json' } };

export const listUploads = () => apiJson<UploadView[]>('/api/uploads');
export const getUpload = (id: string) => apiJson<UploadView>(`/api/uploads/${id}`);

/**
 * Sends one file for extraction (spec §7 POST /api/ocr, multipart: file, currencyCode); `ask`
 * has a file uploaded before come back unread (409 DUPLICATE_FILE) for the person to decide.
 */
export function sendUpload(file: File, currencyCode: string, ifDuplicate: 'ask' | 'upload'): Promise<UploadAccepted> {
  const form = new FormData();
  form.append('file', file);
  form.append('currencyCode', currencyCode);
  form.append('ifDuplicate', ifDuplicate);
  return apiJson<UploadAccepted>('/api/ocr', { method: 'POST', body: form });
}

export const cancelUpload = (id: string) => apiJson(`/api/ocr/cancel/${id}`, emptyJsonPost);

/** Keeps an upload that was flagged as a possible duplicate (clears the flag). */
export const keepUpload = (id: string) => apiJson<UploadView>(`/api/uploads/${id}/keep`, emptyJsonPost);

/** Deletes an upload with its receipt and original file (it leaves the library and every export). */
export const deleteUpload = (id: string) => apiJson<unknown>(`/api/uploads/${id}`, { method: 'DELETE' });
