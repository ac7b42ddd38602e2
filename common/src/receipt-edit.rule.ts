import { RECEIPT_DETAIL_FIELDS, type ReceiptRecord } from './receipt.schema.js';
import type { ReceiptPatch } from './receipt-library.schema.js';

/** The fields a person may correct (quality and the recognized text are the extraction's own), and their tags. */
export const EDITABLE_FIELDS = [...RECEIPT_DETAIL_FIELDS, 'items', 'tags'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** What a correction's fields are called where people read them (the audit trail). */
export const EDITABLE_FIELD_LABELS: Record<EditableField, string> = {
  merchantName: 'merchant',
  date: 'date',
  time: 'time',
  currency: 'currency',
  subtotal: 'subtotal',
  tax: 'tax',
  tip: 'tip',
  discount: 'discount',
  total: 'total',
  paymentMethod: 'payment method',
  category: 'category',
  receiptNumber: 'receipt number',
  tin: 'TIN',
  items: 'items',
  tags: 'tags',
};

export type ReceiptChanges = Partial<Record<EditableField, { from: unknown; to: unknown }>>;

/** A value as it is compared and recorded: absent is null, USD is written out. */
function normalized(record: ReceiptRecord, field: EditableField): unknown {
  if (field === 'currency') return record.currency ?? 'USD';
  if (field === 'tags') return record.tags ?? [];
  return record[field] ?? null;
}

/** A correction applied to a record; null clears a field. */
export function applyPatch(record: ReceiptRecord, patch: ReceiptPatch): ReceiptRecord {
  const next: Record<string, unknown> = { ...record };
  for (const [field, value] of Object.entries(patch)) {
    // Where fields were read is not part of the record.
    if (field === 'fieldLines') continue;
    next[field] = value === null ? undefined : value;
  }
  if (next.currency === 'USD') next.currency = undefined;
  if (Array.isArray(next.tags) && next.tags.length === 0) next.tags = undefined;
  return next as ReceiptRecord;
}

/** What differs between two versions of a receipt, field by field (the items as whole lists). */
export function receiptChanges(before: ReceiptRecord, after: ReceiptRecord): ReceiptChanges {
  const changes: ReceiptChanges = {};
  for (const field of EDITABLE_FIELDS) {
    const from = normalized(before, field);
    const to = normalized(after, field);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}
