import { z } from 'zod';
import { lineItemSchema, receiptRecordSchema } from './receipt.schema.js';

/**
 * What a vision-language model is asked to read off a receipt: the spec §3 record's own fields,
 * less the ones our rules decide (category, quality). Every field is required and nullable —
 * what strict structured output (`response_format: json_schema`, strict) demands — so "not
 * printed" is an explicit null rather than a missing key. Types and bounds are the record's:
 * an answer that passes this schema is one the record could hold.
 */
const READ_FIELDS = {
  rawText: 'The first printed lines of the receipt (the business name and address), as printed, at most 200 characters',
  merchantName: 'The business name as printed at the top of the receipt',
  date: 'The purchase date as YYYY-MM-DD',
  time: 'The purchase time as HH:MM, 24-hour',
  currency: 'ISO 4217 code of the amounts (EUR, GBP, JPY…), from the symbols, words or country on the receipt',
  subtotal: 'The printed subtotal (before tax, tip and discount)',
  tax: 'The total tax printed (VAT, GST, sales tax), also when it is included in the prices',
  tip: 'The printed tip or gratuity',
  discount: 'The total discount printed, as a positive amount',
  total: 'The amount paid, as printed on the total line',
  paymentMethod: 'How it was paid: cash, card, visa, mastercard, amex, apple_pay, google_pay or ewallet',
  receiptNumber: 'The receipt, invoice or transaction number',
  tin: 'The seller’s tax registration number (VAT, GST or TIN number)',
} as const satisfies Partial<Record<keyof typeof receiptRecordSchema.shape, string>>;

const ITEM_FIELDS = {
  description: 'The item as printed',
  qty: 'The quantity (or weight) when printed',
  unitPrice: 'The price of one unit when printed',
  amount: 'The line amount as printed; negative for a coupon, saving or deposit returned',
} as const satisfies Record<keyof typeof lineItemSchema.shape, string>;

/** A record field made required and nullable, its own checks kept. */
function requiredNullable(field: z.ZodType, description: string): z.ZodType {
  const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
  return (inner instanceof z.ZodNullable ? inner : inner.nullable()).describe(description);
}

const itemShape = Object.fromEntries(
  Object.entries(ITEM_FIELDS).map(([name, description]) => [
    name,
    name === 'description' ? lineItemSchema.shape.description.describe(description) : requiredNullable(lineItemSchema.shape[name as keyof typeof ITEM_FIELDS], description),
  ]),
);
const recordShape = Object.fromEntries(
  Object.entries(READ_FIELDS).map(([name, description]) => [
    name,
    name === 'rawText' ? receiptRecordSchema.shape.rawText.describe(description) : requiredNullable(receiptRecordSchema.shape[name as keyof typeof READ_FIELDS], description),
  ]),
);

type Nullable<T> = { [K in keyof T]-?: Exclude<T[K], undefined> | null };
type ReadRecord = z.infer<typeof receiptRecordSchema>;
type ReadItem = z.infer<typeof lineItemSchema>;

/** The receipt as a vision model reads it. */
export type VlmReceipt = Nullable<Omit<Pick<ReadRecord, keyof typeof READ_FIELDS>, 'rawText'>> & {
  rawText: string;
  items: Array<Nullable<Omit<ReadItem, 'description'>> & { description: string }>;
};

export const vlmReceiptSchema = z.object({
  ...recordShape,
  items: z.array(z.object(itemShape)).describe('Every purchased item line, in printed order; empty when none is legible'),
}) as unknown as z.ZodType<VlmReceipt>;

/** The JSON Schema the model's answer is constrained by (and told, where a server cannot constrain it). */
export function vlmReceiptJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(vlmReceiptSchema) as Record<string, unknown>;
  return schema;
}
