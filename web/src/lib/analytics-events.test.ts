import type { ReceiptView } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { accountProperties, exportPayload, ocrResultPayload, subscriptionPayload, uploadPayload } from './analytics-events.js';

describe('analytics payloads (spec §3)', () => {
  it('describes an upload batch', () => {
    const files = [
      { type: 'image/jpeg', name: 'a.jpg' },
      { type: 'application/pdf', name: 'b.pdf' },
      { type: '', name: 'c.HEIC' },
    ];
    expect(uploadPayload(files, 'drop')).toEqual({ upload_surface: 'home', batch_size: 3, file_types: 'jpeg,pdf,heic', upload_method: 'drop' });
  });

  it('describes an OCR result with confidence as a whole percent', () => {
    const receipt = { merchantName: 'Shop', currency: 'MYR', total: 12.5, tax: 0.7, quality: 0.876 } as ReceiptView;
    expect(ocrResultPayload(receipt)).toEqual({ merchant_found: true, currency: 'MYR', total: 12.5, tax: 0.7, confidence: 88 });
    const empty = { quality: 0.3, total: null } as unknown as ReceiptView;
    expect(ocrResultPayload(empty)).toEqual({ merchant_found: false, currency: 'unknown', total: null, tax: null, confidence: 30 });
  });

  it('fills the export and subscription defaults', () => {
    expect(exportPayload({ format: 'xlsx', rowCount: 3, durationMs: 120.4 })).toEqual({ format: 'xlsx', preset: 'generic', row_count: 3, duration_ms: 120, value: 1 });
    expect(subscriptionPayload({ plan: 'business', value: 14.95 })).toEqual({ plan: 'business', billing_cycle: 'monthly', value: 14.95, currency: 'USD' });
  });

  it('reports the account state', () => {
    expect(accountProperties(null)).toEqual({ account_state: 'anonymous' });
    expect(accountProperties({ subscriptionStatus: 'active' })).toEqual({ account_state: 'signed_in', subscriptionStatus: 'active' });
    expect(accountProperties({})).toEqual({ account_state: 'signed_in' });
  });
});
