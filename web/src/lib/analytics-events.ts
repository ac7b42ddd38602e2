import type { ReceiptView } from '@receipts/common';

/** Spec §3 analytics payloads, built without I/O so they can be checked. */

export type UploadSurface = 'home';

/** How files reached the uploader: dropped, chosen in the picker, or taken with the camera. */
export type UploadMethod = 'drop' | 'picker' | 'camera';

export function uploadPayload(files: readonly { type: string; name: string }[], method: UploadMethod, surface: UploadSurface = 'home') {
  const subtypes = files.map((f) => f.type.split('/')[1] || f.name.split('.').pop()?.toLowerCase() || 'unknown');
  return { upload_surface: surface, batch_size: files.length, file_types: subtypes.join(','), upload_method: method };
}

export function ocrResultPayload(receipt: ReceiptView) {
  return {
    merchant_found: Boolean(receipt.merchantName),
    currency: receipt.currency ?? (receipt.total != null ? 'USD' : 'unknown'),
    total: receipt.total ?? null,
    tax: receipt.tax ?? null,
    confidence: Math.round(receipt.quality * 100),
  };
}

export function exportPayload(input: { format: string; preset?: string; rowCount: number; durationMs: number; value?: number }) {
  return {
    format: input.format,
    preset: input.preset ?? 'generic',
    row_count: input.rowCount,
    duration_ms: Math.round(input.durationMs),
    value: input.value ?? 1,
  };
}

export function pricingPayload(suggestedPlan: string) {
  return { suggested_plan: suggestedPlan };
}

export function subscriptionPayload(input: { plan: string; value: number; billingCycle?: string; currency?: string }) {
  return { plan: input.plan, billing_cycle: input.billingCycle ?? 'monthly', value: input.value, currency: input.currency ?? 'USD' };
}

export function accountProperties(profile: { subscriptionStatus?: string } | null) {
  return {
    account_state: profile ? 'signed_in' : 'anonymous',
    ...(profile?.subscriptionStatus ? { subscriptionStatus: profile.subscriptionStatus } : {}),
  } as const;
}
