import { renderIssue, shownIssues, taxRatesThatHold, type ApprovalView, type DuplicateOf, type ReceiptRecord, type ReceiptView, type UploadApproval, type UploadView } from '@receipts/common';
import type { ReceiptRow, UploadRow } from './db/schema.js';

const RAW_TEXT_PREVIEW = 200;

function preview(text: string): string {
  return text.length > RAW_TEXT_PREVIEW ? `${text.slice(0, RAW_TEXT_PREVIEW)}...` : text;
}

/** What a receipt view is made of: a stored receipt without its bookkeeping columns. */
export type ReceiptFields = Omit<ReceiptRow, 'uploadId' | 'createdAt' | 'updatedAt'>;

/**
 * A receipt's fields as the receipts table stores them (absent is null, no currency is USD): the
 * inverse of toReceiptView, for the extraction and for corrections alike.
 */
export function receiptColumns(receipt: ReceiptRecord) {
  return {
    merchantName: receipt.merchantName ?? null,
    date: receipt.date ?? null,
    time: receipt.time ?? null,
    currency: receipt.currency ?? 'USD',
    subtotal: receipt.subtotal ?? null,
    tax: receipt.tax ?? null,
    tip: receipt.tip ?? null,
    discount: receipt.discount ?? null,
    total: receipt.total ?? null,
    paymentMethod: receipt.paymentMethod ?? null,
    category: receipt.category,
    receiptNumber: receipt.receiptNumber ?? null,
    tin: receipt.tin ?? null,
    items: receipt.items,
    tags: receipt.tags ?? [],
    taxRates: taxRatesThatHold(receipt),
  };
}

/** A stored receipt in the spec §3 shape: absent fields omitted, currency omitted when USD. */
export function toReceiptView(row: ReceiptFields): ReceiptView {
  const optional = <T>(value: T | null) => (value === null ? undefined : value);
  return {
    id: row.id,
    merchantName: optional(row.merchantName),
    date: optional(row.date),
    time: optional(row.time),
    currency: row.currency === 'USD' ? undefined : row.currency,
    subtotal: row.subtotal,
    tax: row.tax,
    tip: row.tip,
    discount: row.discount,
    total: row.total,
    paymentMethod: optional(row.paymentMethod),
    category: row.category,
    receiptNumber: optional(row.receiptNumber),
    tin: optional(row.tin),
    quality: row.quality,
    items: row.items,
    // Only where the receipt prints rates: a receipt without them keeps the spec §3 shape.
    ...(row.taxRates.length > 0 ? { taxRates: row.taxRates } : {}),
    rawText: preview(row.rawText),
    // Only where it has tags, as with the rates.
    ...(row.tags.length > 0 ? { tags: row.tags } : {}),
    // Messages are rendered here, at the edge: the api shows them as it always did.
    ...shownIssues(row.issues),
    acceptedIssues: row.acceptedIssues.map(({ flag, userId, at }) => ({ issue: renderIssue(flag), userId, at })),
    valid: row.valid,
  };
}

export function toUploadView(row: UploadRow, receipt?: ReceiptRow | null, duplicateOf?: DuplicateOf): UploadView {
  return {
    id: row.id,
    filename: row.filename,
    mimeType: row.mimeType,
    size: row.size,
    status: row.status,
    progress: row.progress,
    step: row.step,
    lane: row.lane,
    error: row.error ?? undefined,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    receipt: receipt ? toReceiptView(receipt) : undefined,
    duplicateOf,
    // An anonymous visitor's upload is in no workspace: no approval step to show.
    approval: row.workspaceId ? toUploadApproval(row) : undefined,
  };
}

/** An upload's approval as the upload views show it. */
export function toUploadApproval(row: Pick<UploadRow, 'approvalStatus' | 'approvalComment'>): UploadApproval {
  return { status: row.approvalStatus, comment: row.approvalComment };
}

/** An upload's approval as the library and the queue show it, given the decider's name. */
export function toApprovalView(row: UploadRow, decidedBy: string | null): ApprovalView {
  return {
    ...toUploadApproval(row),
    decidedBy,
    decidedAt: row.approvalDecidedAt?.toISOString() ?? null,
    submittedAt: row.approvalSubmittedAt?.toISOString() ?? null,
    reportId: row.reportId,
  };
}

/** An upload's duplicate flag as the views show it, given the earlier upload's file name. */
export function toDuplicateOf(upload: Pick<UploadRow, 'duplicateOf' | 'duplicateReason'>, originalFilename: string | null | undefined): DuplicateOf | undefined {
  if (!upload.duplicateOf || !upload.duplicateReason || originalFilename == null) return undefined;
  return { uploadId: upload.duplicateOf, filename: originalFilename, reason: upload.duplicateReason };
}
