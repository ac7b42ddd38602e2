import { apiErrorSchema, type UploadAccepted, type UploadView } from '@receipts/common';

/** Every call sends cookies and the XMLHttpRequest marker (spec §7). */
async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    credentials: 'include',
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...init.headers },
  });
  if (!res.ok) {
    const body = await res.text();
    const parsed = apiErrorSchema.safeParse(safeJson(body));
    throw new Error(parsed.success ? parsed.data.message : body || `HTTP ${res.status}`);
  }
  return (await res.json()) as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function uploadReceipt(file: File, currencyCode: string): Promise<UploadAccepted> {
  const form = new FormData();
  form.append('file', file);
  form.append('currencyCode', currencyCode);
  return call<UploadAccepted>('/api/ocr', { method: 'POST', body: form });
}

export function listUploads(): Promise<UploadView[]> {
  return call<UploadView[]>('/api/uploads');
}

export function cancelUpload(id: string): Promise<UploadView> {
  return call<UploadView>(`/api/ocr/cancel/${id}`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
}
