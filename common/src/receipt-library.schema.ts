import { z } from 'zod';
import { safeText } from './control-characters.rule.js';
import { CELL_TEXT_MAX, WORKBOOK_ERRORS } from './export/workbook.rules.js';
import { ISO_4217 } from './extraction/currency.rule.js';
import { AMOUNT_TOO_LARGE, lineItemSchema, MONEY_MAX, RECEIPT_DETAIL_FIELDS, receiptViewSchema } from './receipt.schema.js';
import { categoryNameSchema, tagSchema, tagsSchema } from './categories.rules.js';
import { duplicateOfSchema } from './duplicate.schema.js';
import { engineNameSchema } from './ocr-engine.rules.js';
import { SOURCED_FIELDS, type SourcedField } from './extraction/extract-receipt.js';
import { uploadAcceptedSchema, uploadStatusSchema } from './upload.schema.js';
import { approvalStatusSchema, approvalViewSchema } from './approval.rule.js';

export const RECEIPT_EDIT_KINDS = ['correction', 'reextraction'] as const;
export type ReceiptEditKind = (typeof RECEIPT_EDIT_KINDS)[number];

/** One recorded change of a receipt: field → { from, to } (items as whole lists). */
export const receiptEditSchema = z.object({
  id: z.uuid(),
  kind: z.enum(RECEIPT_EDIT_KINDS),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  at: z.string(),
});
export type ReceiptEdit = z.infer<typeof receiptEditSchema>;

/** A receipt as the library lists it: the spec §3 record, its validity, and the upload it came from. */
export const libraryReceiptSchema = receiptViewSchema.extend({
  uploadId: z.uuid(),
  filename: z.string(),
  /** The upload's state: `queued`/`processing` while a re-extraction runs. */
  uploadStatus: uploadStatusSchema,
  /** The error of the last re-extraction when it failed (the receipt shown is the earlier one). */
  uploadError: z.string().optional(),
  uploadedAt: z.string(),
  updatedAt: z.string(),
  /** Corrected by its owner at least once. */
  edited: z.boolean(),
  /** The original file is still stored (it is deleted after 90 days), so it can be re-extracted. */
  originalAvailable: z.boolean(),
  duplicateOf: duplicateOfSchema.optional(),
  /** Where it stands in the submit → approve step (`not-required` where there is none). */
  approval: approvalViewSchema,
});
export type LibraryReceipt = z.infer<typeof libraryReceiptSchema>;

/** GET /api/receipts/:id: the library entry, the whole recognized text and the history of changes. */
const textBoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const receiptDetailSchema = libraryReceiptSchema.extend({
  fullText: z.string(),
  edits: z.array(receiptEditSchema),
  /** Every recognised line with its page and box on the original (fractions of the page); empty when the engine gave none. */
  lines: z.array(z.object({ page: z.number().int(), text: z.string(), box: textBoxSchema, confidence: z.number() })),
  /** Which of `lines` each field was read from, for showing its place on the receipt (items: one per item, null for one a person added). */
  fieldLines: z.record(z.string(), z.union([z.number().int(), z.array(z.number().int().nullable())])),
  /** Pictures of the receipt's pages the api serves (`GET /api/receipts/:id/pages/:n`, n from 0); 0 once the original is deleted. */
  pages: z.number().int().min(0),
  /** The reader that produced the text, e.g. `tesseract:deu`, `paddle`, `pdf-text`; null for receipts read before it was recorded. */
  readBy: z.string().nullable(),
  /** Per page, the quarter turn (clockwise, degrees) that shows its picture the way it was read upright; empty: as stored. */
  pageTurns: z.array(z.number().int()),
});
export type ReceiptDetail = z.infer<typeof receiptDetailSchema>;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD');
const flag = z.enum(['true', 'false'], { message: 'Use true or false' }).transform((v) => v === 'true');

/** Filters shared by the library list and the export (query-string values). */
export const receiptFilterSchema = z.object({
  /** Searched in the merchant name and the recognized text. */
  q: safeText().trim().max(200, 'The search text is too long').optional(),
  /** Receipt date range, inclusive. */
  from: isoDay.optional(),
  to: isoDay.optional(),
  /** A category's name, whatever its case. */
  category: categoryNameSchema.optional(),
  /** Receipts carrying this tag, whatever its case. */
  tag: tagSchema.optional(),
  currency: z
    .string()
    .transform((c) => c.toUpperCase())
    .refine((c) => ISO_4217.has(c), 'currency must be a three-letter ISO 4217 code')
    .optional(),
});
export type ReceiptFilter = z.infer<typeof receiptFilterSchema>;

export const RECEIPT_SORTS = ['uploadedAt', 'date', 'total', 'merchantName'] as const;
export const RECEIPT_PAGE_SIZE_MAX = 200;

/** GET /api/receipts query. */
export const receiptListQuerySchema = receiptFilterSchema.extend({
  valid: flag.optional(),
  duplicate: flag.optional(),
  /** Receipts in this approval status. */
  approval: approvalStatusSchema.optional(),
  sort: z.enum(RECEIPT_SORTS).default('uploadedAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(RECEIPT_PAGE_SIZE_MAX).default(50),
});
export type ReceiptListQuery = z.infer<typeof receiptListQuerySchema>;

/** GET /api/receipts answer. */
export const receiptListSchema = z.object({
  items: z.array(libraryReceiptSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The currencies of all the owner's receipts (whatever the filters): the currency filter's choices. */
  currencies: z.array(z.string()),
});
export type ReceiptList = z.infer<typeof receiptListSchema>;

/** A text a user types into a cell: at most what a workbook cell holds (spec §5), null clears it. */
const cellText = safeText().trim().max(CELL_TEXT_MAX, WORKBOOK_ERRORS.textTooLong).nullable();
const money = z.number({ message: 'Amounts are numbers' }).finite().nonnegative('Amounts cannot be negative').max(MONEY_MAX, AMOUNT_TOO_LARGE).nullable();
export const MAX_EDITED_ITEMS = 200;

const lineIndex = z.number().int().min(0);
/**
 * Where the corrected fields are on the receipt: a field filled from a line of the picture points
 * at it, and the items keep their lines through reordering (null for an item a person added).
 */
const sourcedFieldShape = Object.fromEntries(SOURCED_FIELDS.map((f) => [f, lineIndex])) as Record<SourcedField, typeof lineIndex>;
export const receiptSourcesSchema = z
  .object({ ...sourcedFieldShape, items: z.array(lineIndex.nullable()).max(MAX_EDITED_ITEMS) })
  .partial()
  .strict();

type ReceiptDetailField = (typeof RECEIPT_DETAIL_FIELDS)[number];

/** How a correction of a record's detail field is checked where the field is not free text (cellText). */
const DETAIL_EDITS = {
  date: isoDay.nullable(),
  currency: z
    .string()
    .transform((c) => c.toUpperCase())
    .refine((c) => ISO_4217.has(c), 'currency must be a three-letter ISO 4217 code'),
  subtotal: money,
  tax: money,
  tip: money,
  discount: money,
  total: money,
  /** One of the owner's categories (the service checks which). */
  category: categoryNameSchema,
} satisfies Partial<Record<ReceiptDetailField, z.ZodType>>;
type DetailEdits = { [F in ReceiptDetailField]: F extends keyof typeof DETAIL_EDITS ? (typeof DETAIL_EDITS)[F] : typeof cellText };
const isSpecialEdit = (field: ReceiptDetailField): field is keyof typeof DETAIL_EDITS => field in DETAIL_EDITS;
/** The record's detail fields (receipt.schema.ts), each as a person may correct it. */
const { receiptNumber, tin, ...purchaseEdits } = Object.fromEntries(
  RECEIPT_DETAIL_FIELDS.map((field) => [field, isSpecialEdit(field) ? DETAIL_EDITS[field] : cellText]),
) as DetailEdits;

/**
 * PATCH /api/receipts/:id: any field or the item list (sent whole). The receipt is validated
 * again; its quality, an extraction measure, stays as it was.
 */
export const receiptPatchSchema = z
  .object({
    ...purchaseEdits,
    /** The receipt's tags, sent whole; checked before the receipt's numbers, so the first complaint stays the one it was. */
    tags: tagsSchema,
    receiptNumber,
    tin,
    items: z
      .array(
        lineItemSchema.extend({
          description: safeText().trim().max(CELL_TEXT_MAX, WORKBOOK_ERRORS.textTooLong),
          qty: z.number().finite().nullable().optional(),
        }),
      )
      .max(MAX_EDITED_ITEMS, `At most ${MAX_EDITED_ITEMS} items`),
    /** Replaces the record of where each field was read (indexes into the receipt's lines). */
    fieldLines: receiptSourcesSchema,
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change');
export type ReceiptPatch = z.infer<typeof receiptPatchSchema>;

/** POST /api/receipts/:id/issues/accept and …/issues/reopen: the flag, as the receipt shows it. */
export const issueDecisionSchema = z.object({
  issue: safeText({ message: 'Name the issue to accept.' }).min(1, 'Name the issue to accept.').max(1000, 'Not an issue of this receipt.'),
});

/** POST /api/receipts/flags/accept body: the kind of flag (`flagKind`) to accept on every receipt that needs review for it. */
export const flagKindDecisionSchema = z.object({
  kind: safeText({ message: 'Name the kind of flag to accept.' }).min(1, 'Name the kind of flag to accept.').max(1000, 'Not a kind of flag.'),
});

/** POST /api/receipts/flags/accept answer: how many receipts had the kind of flag accepted. */
export const flagKindAcceptedSchema = z.object({ receipts: z.number().int() });
export type FlagKindAccepted = z.infer<typeof flagKindAcceptedSchema>;

/** POST /api/receipts/:id/reextract body; without an engine the server's default is used. */
export const reextractRequestSchema = z.object({ engine: engineNameSchema.optional() });
export type ReextractRequest = z.infer<typeof reextractRequestSchema>;

/** POST /api/receipts/:id/reextract answer: the new upload that reads the receipt again, queued. */
export const reextractAcceptedSchema = uploadAcceptedSchema.extend({ receiptId: z.uuid() });
export type ReextractAccepted = z.infer<typeof reextractAcceptedSchema>;

/** DELETE /api/user/account body: the account's password, so a stolen session cannot delete it. */
export const deleteAccountSchema = z.object({
  password: z.string({ message: 'Enter your password to delete your account.' }).min(1, 'Enter your password to delete your account.'),
});
