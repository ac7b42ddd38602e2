import type { RecognizedField } from '../recognized-document.js';
import { validMoney } from './money.rule.js';

export type Fields = Record<string, RecognizedField>;

export function fieldText(field: RecognizedField | undefined): string | undefined {
  const v = field?.value ?? field?.content;
  return v === undefined || v === null ? undefined : String(v).trim() || undefined;
}

export function fieldMoney(field: RecognizedField | undefined): number | null {
  return field ? validMoney(field.value ?? field.content ?? null) : null;
}

/** Spec §5: tax from the first present of these fields. */
export const TAX_FIELDS = ['TotalTax', 'Tax', 'VAT', 'VATAmount', 'GST', 'SalesTax'] as const;

export function taxFromFields(fields: Fields): number | null {
  for (const name of TAX_FIELDS) {
    const amount = fieldMoney(fields[name]);
    if (amount !== null) return amount;
  }
  return null;
}

const RECEIPT_NUMBER_FIELDS = ['ReceiptNumber', 'InvoiceId', 'DocumentId', 'TransactionId'] as const;

/** Spec §5: from the fields, else a receipt/invoice/trans # pattern of at least 4 characters. */
export function findReceiptNumber(fields: Fields, text: string): string | undefined {
  for (const name of RECEIPT_NUMBER_FIELDS) {
    const value = fieldText(fields[name]);
    if (value) return value;
  }
  const m = /\b(?:receipt|rcpt|invoice|inv|trans(?:action)?|bill|doc)\.?\s*(?:no\.?|number|#|num)?\s*[:#.]?\s*([A-Z0-9][A-Z0-9\-\/]{3,})/i.exec(text);
  return m && /\d/.test(m[1]!) ? m[1] : undefined;
}

/** Spec §5: TIN from its field, else a tax-registration pattern of at least 9 characters. */
export function findTin(fields: Fields, text: string): string | undefined {
  const value = fieldText(fields.TIN);
  if (value) return value;
  const m = /\b(?:TIN|GST\s*(?:REG(?:\.|ISTRATION)?|ID)|VAT\s*(?:REG|NO|ID)|TAX\s*ID|SST\s*(?:REG|ID|NO)|ABN|EIN)\s*(?:NO\.?|#)?\s*[:.]?\s*([A-Z0-9][A-Z0-9\- ]{7,}[A-Z0-9])/i.exec(text);
  const tin = m?.[1]?.replace(/\s+/g, '');
  return tin && tin.length >= 9 && /\d{5}/.test(tin) ? tin : undefined;
}

const PAYMENT_METHODS: Array<[RegExp, string]> = [
  [/\bvisa\b/i, 'visa'],
  [/master\s*card|\bmc\b/i, 'mastercard'],
  [/\bamex\b|american express/i, 'amex'],
  [/apple\s*pay/i, 'apple_pay'],
  [/google\s*pay|gpay/i, 'google_pay'],
  [/\b(credit|debit)\s*card\b|\bcard\b/i, 'card'],
  [/e-?wallet|grab\s*pay|touch\s*'?n\s*go|boost/i, 'ewallet'],
  [/\bcash\b|tunai/i, 'cash'],
];

export function findPaymentMethod(fields: Fields, text: string): string | undefined {
  const value = fieldText(fields.PaymentMethod);
  if (value) return value.toLowerCase();
  for (const [re, method] of PAYMENT_METHODS) if (re.test(text)) return method;
  return undefined;
}
