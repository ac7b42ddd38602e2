import { z } from 'zod';
import { FLAG_KINDS, ISSUE_FIELDS, type FlagCode } from './extraction/issue-codes.rules.js';

/** The spec's categories: what the extraction files a receipt under, and every owner's defaults (categories.rules.ts adds one's own). */
export const CATEGORIES = ['grocery', 'restaurant', 'gas', 'retail', 'pharmacy', 'other'] as const;
export const categorySchema = z.enum(CATEGORIES);
export type Category = z.infer<typeof categorySchema>;

/**
 * The largest amount a receipt may carry: far above any purchase, far below what the money
 * columns hold (numeric(14,2)), so a misread or hostile value is refused instead of overflowing.
 */
export const MONEY_MAX = 1_000_000_000;
export const AMOUNT_TOO_LARGE = 'Amounts cannot exceed 1,000,000,000';

/** A money amount: finite and never negative (spec §5); null when the receipt does not state it. */
const money = z.number().finite().nonnegative().max(MONEY_MAX, AMOUNT_TOO_LARGE).nullable().optional();

export const lineItemSchema = z.object({
  description: z.string(),
  qty: z.number().finite().nullable().optional(),
  unitPrice: money,
  /** Negative for coupons, deposit returns and savings printed among the items; totals stay non-negative. */
  amount: z.number().finite().min(-MONEY_MAX, AMOUNT_TOO_LARGE).max(MONEY_MAX, AMOUNT_TOO_LARGE).nullable().optional(),
});
export type LineItem = z.infer<typeof lineItemSchema>;

/** One rate of the receipt's tax as its rate table (or its one rated tax line) prints it; `rate` in percent, null where not printed. */
export const taxRateSchema = z.object({
  rate: z.number().finite().min(0).max(100).nullable(),
  net: z.number().finite().min(-MONEY_MAX, AMOUNT_TOO_LARGE).max(MONEY_MAX, AMOUNT_TOO_LARGE),
  tax: z.number().finite().min(-MONEY_MAX, AMOUNT_TOO_LARGE).max(MONEY_MAX, AMOUNT_TOO_LARGE),
  gross: z.number().finite().min(-MONEY_MAX, AMOUNT_TOO_LARGE).max(MONEY_MAX, AMOUNT_TOO_LARGE),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

/** The spec §3 receipt record. */
export const receiptRecordSchema = z.object({
  merchantName: z.string().optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  time: z.string().optional(),
  /** ISO 4217 code, omitted when USD. */
  currency: z.string().length(3).optional(),
  subtotal: money,
  tax: money,
  tip: money,
  discount: money,
  total: money,
  paymentMethod: z.string().optional(),
  /** One of the spec's categories, or after its owner's correction or rule one of their own. */
  category: z.string(),
  receiptNumber: z.string().optional(),
  tin: z.string().optional(),
  quality: z.number().min(0).max(1),
  items: z.array(lineItemSchema),
  /** The tax per rate where the receipt prints it; they add up to `tax`. Absent where it prints no rates. */
  taxRates: z.array(taxRateSchema).optional(),
  /** Preview of the recognized text: 200 characters, then `...` when cut. */
  rawText: z.string(),
  /** The owner's own tags; absent when it has none. */
  tags: z.array(z.string()).optional(),
});
export type ReceiptRecord = z.infer<typeof receiptRecordSchema>;

/** The record's single-value fields that describe the purchase, in the spec §3 order. */
export const RECEIPT_DETAIL_FIELDS = [
  'merchantName',
  'date',
  'time',
  'currency',
  'subtotal',
  'tax',
  'tip',
  'discount',
  'total',
  'paymentMethod',
  'category',
  'receiptNumber',
  'tin',
] as const satisfies ReadonlyArray<keyof ReceiptRecord>;

/** A flag (an issue, or low quality) a person accepted after looking, as the message shown, and who and when. */
export const issueAcceptanceSchema = z.object({ issue: z.string(), userId: z.string().nullable(), at: z.string() });

/** One of a receipt's issues as its code and values, the field it is shown beside, and its message (the same as in `issues`). */
export const issueFlagViewSchema = z.object({
  code: z.enum(Object.keys(FLAG_KINDS) as [FlagCode, ...FlagCode[]]),
  values: z.record(z.string(), z.string()),
  field: z.enum(ISSUE_FIELDS).nullable(),
  message: z.string(),
});
export type IssueFlagView = z.infer<typeof issueFlagViewSchema>;

/** A stored receipt as the api returns it: the record plus what validation found. */
export const receiptViewSchema = receiptRecordSchema.extend({
  id: z.uuid(),
  issues: z.array(z.string()),
  /** The issues as flags, in the same order: what code places and compares. */
  flags: z.array(issueFlagViewSchema),
  /** The flags a person accepted: they no longer keep the receipt off the Receipts sheet. */
  acceptedIssues: z.array(issueAcceptanceSchema).optional(),
  /** Valid for export: quality ≥ 0.6 and no issues (spec §4), or each of those flags accepted. */
  valid: z.boolean(),
});
export type ReceiptView = z.infer<typeof receiptViewSchema>;
