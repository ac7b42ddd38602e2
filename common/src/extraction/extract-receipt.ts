import type { ReceiptRecord } from '../receipt.schema.js';
import type { RecognizedDocument } from '../recognized-document.js';
import { categorize } from './category.rule.js';
import { detectCurrency } from './currency.rule.js';
import { findDate, findTime, isDayFirst, normalizeDayMonth } from './date.rule.js';
import { fieldMoney, fieldText, findPaymentMethod, findReceiptNumber, findTin, taxFromFields } from './fields.rule.js';
import { itemsFromFields, itemsFromText, itemWords } from './items.rule.js';
import { findMerchant } from './merchant.rule.js';
import { computeQuality, type FieldConfidences } from './quality.rule.js';
import { findTotals } from './totals.rule.js';

export const RAW_TEXT_PREVIEW = 200;
const MAX_ITEMS = 100;
/** How sure a value read from plain text by a rule is, compared with a service's own confidence. */
const TEXT_RULE_CONFIDENCE = 0.75;

/** Spec §9: 200 characters, then `...` when cut. */
export function rawTextPreview(text: string): string {
  return text.length > RAW_TEXT_PREVIEW ? `${text.slice(0, RAW_TEXT_PREVIEW)}...` : text;
}

/** OCR text as trimmed, non-empty lines with the scanner's edge marks removed. */
export function textLines(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((l) => l.replace(/^[|!\s]+|[|\s]+$/g, '').replace(/\s+/g, ' '))
    .filter((l) => l.length > 0);
}

function dateFromField(value: string | undefined, dayFirst: boolean): string | null {
  if (!value) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const parts = /^(\d{1,2})[\/\-.](\d{1,2})[\/\-.](\d{2,4})$/.exec(value);
  return parts ? normalizeDayMonth(Number(parts[1]), Number(parts[2]), Number(parts[3]), dayFirst) : null;
}

/**
 * The spec §5 extraction: the recognition service's fields where it gave them (with their
 * confidences), the text rules for the rest, then category and quality.
 */
export function extractReceipt(doc: RecognizedDocument, options: { currencyCode?: string; now?: Date } = {}): ReceiptRecord {
  const fields = doc.documents[0]?.fields ?? {};
  const lines = textLines(doc.content);
  const currency = detectCurrency(fieldText(fields.CurrencyCode) ?? fieldText(fields.Currency), doc.content, options.currencyCode);
  const dayFirst = isDayFirst(currency);
  const fromText = findTotals(lines);
  const confidences: FieldConfidences = {};

  const merchant = findMerchant(fields.MerchantName, lines);
  if (merchant) confidences.merchant = merchant.confidence;

  const totalField = fieldMoney(fields.Total);
  const total = totalField ?? fromText.total;
  if (total !== null) confidences.total = totalField !== null ? (fields.Total?.confidence ?? TEXT_RULE_CONFIDENCE) : TEXT_RULE_CONFIDENCE;

  const dateField = dateFromField(fieldText(fields.TransactionDate), dayFirst);
  const date = dateField ?? findDate(lines, dayFirst);
  if (date) confidences.date = dateField ? (fields.TransactionDate?.confidence ?? TEXT_RULE_CONFIDENCE) : TEXT_RULE_CONFIDENCE;

  const serviceItems = itemsFromFields(fields.Items);
  const items = (serviceItems.length > 0 ? serviceItems : itemsFromText(lines)).slice(0, MAX_ITEMS);
  if (items.length > 0) confidences.items = serviceItems.length > 0 ? (fields.Items?.confidence ?? TEXT_RULE_CONFIDENCE) : 0.5;

  const text = lines.join('\n');
  const record: ReceiptRecord = {
    merchantName: merchant?.name,
    date: date ?? undefined,
    time: fieldText(fields.TransactionTime) ?? findTime(lines) ?? undefined,
    currency: currency === 'USD' ? undefined : currency,
    subtotal: fieldMoney(fields.Subtotal) ?? fromText.subtotal,
    tax: taxFromFields(fields) ?? fromText.tax,
    tip: fieldMoney(fields.Tip) ?? fromText.tip,
    discount: fieldMoney(fields.Discount) ?? fromText.discount,
    total,
    paymentMethod: findPaymentMethod(fields, text),
    category: categorize(merchant?.name, itemWords(items)),
    receiptNumber: findReceiptNumber(fields, text),
    tin: findTin(fields, text),
    quality: computeQuality(confidences, doc.documents[0]?.confidence),
    items,
    rawText: rawTextPreview(doc.content.trim()),
  };
  return record;
}
