import type { RecognizedField } from '../recognized-document.js';
import { keywordSource } from './keywords/index.js';
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

/** "Receipt No: 1234", "Bon-Nr.:933", "N° ticket 0025243", "Factura: F-12/0034", "レシートNo. 1234". */
const RECEIPT_NUMBER = new RegExp(
  String.raw`(?:${keywordSource('receiptNumber')}|trans)\.?\s*(?:no\.?|nr\.?|number|nummer|num(?:ero|éro)?\.?|n[°º]\.?|#)?\s*[:#.]?\s*(?<value>[A-Z]{0,4}[-\/]?\d[A-Z0-9\-\/]{3,})`,
  'iu',
);

/** Spec §5: from the fields, else a receipt/invoice/trans # pattern of at least 4 characters, and its line. */
export function findReceiptNumberWithSource(fields: Fields, lines: readonly string[]): { value: string; line?: number } | undefined {
  for (const name of RECEIPT_NUMBER_FIELDS) {
    const value = fieldText(fields[name]);
    if (value) return { value };
  }
  for (const [i, line] of lines.entries()) {
    const m = RECEIPT_NUMBER.exec(line);
    // A date or a time after the label is not the number ("Bill 12/03/2026").
    const value = m?.groups?.value;
    if (value && !/^\d{1,2}[\/.-]\d{1,2}[\/.-]\d{2,4}$/.test(value)) return { value, line: i };
  }
  return undefined;
}

export function findReceiptNumber(fields: Fields, text: string): string | undefined {
  return findReceiptNumberWithSource(fields, text.split('\n'))?.value;
}

const TIN = new RegExp(
  `(?:\\bTIN\\b|GST\\s*(?:REG(?:\\.|ISTRATION)?|ID)|VAT\\s*(?:REG|NO|ID)|TAX\\s*ID|SST\\s*(?:REG|ID|NO)|\\bABN\\b|\\bEIN\\b|UID|${keywordSource('tin')})\\s*(?:NO\\.?|NR\\.?|#)?\\s*[:.]?\\s*(?<value>[A-Z]{0,3}[0-9](?:[A-Z0-9\\-\\/.]|\\s(?=\\d)){7,}[A-Z0-9])`,
  'iu',
);

/** Spec §5: TIN from its field, else a tax-registration pattern of at least 9 characters, and its line. */
export function findTinWithSource(fields: Fields, lines: readonly string[]): { value: string; line?: number } | undefined {
  const value = fieldText(fields.TIN);
  if (value) return { value };
  for (const [i, line] of lines.entries()) {
    const tin = TIN.exec(line)?.groups?.value?.replace(/\s+/g, '');
    // At least six digits: a registration number, not a word that followed the label.
    if (tin && tin.length >= 9 && (tin.match(/\d/g) ?? []).length >= 6) return { value: tin, line: i };
  }
  return undefined;
}

export function findTin(fields: Fields, text: string): string | undefined {
  return findTinWithSource(fields, text.split('\n'))?.value;
}

const PAYMENT_METHODS: Array<[RegExp, string]> = [
  [/\bvisa\b/i, 'visa'],
  [/master\s*card|\bmc\b/i, 'mastercard'],
  [/\bamex\b|american express/i, 'amex'],
  [/apple\s*pay/i, 'apple_pay'],
  [/google\s*pay|gpay/i, 'google_pay'],
  [/\b(credit|debit)\s*card\b|\bcard\b|\b(debit|eftpos|ec[\s-]?karte|girocard|kartenzahlung|carte(\s*bancaire)?|tarj(eta|\.)|cart(ã|a)o|multibanco|bancomat|pinnen)(?![\p{L}])|\b(cb|pin)\s+[€$]?\d|クレジット/iu, 'card'],
  [/e-?wallet|grab\s*pay|touch\s*'?n\s*go|boost/i, 'ewallet'],
  [/\bcash\b|tunai|\bbar\b|esp(è|e)ces|efectivo|dinheiro|contanti|contant|現金/i, 'cash'],
];

export function findPaymentMethodWithSource(fields: Fields, lines: readonly string[]): { value: string; line?: number } | undefined {
  const value = fieldText(fields.PaymentMethod);
  if (value) return { value: value.toLowerCase() };
  for (const [re, method] of PAYMENT_METHODS) {
    const i = lines.findIndex((l) => re.test(l));
    if (i >= 0) return { value: method, line: i };
  }
  return undefined;
}

export function findPaymentMethod(fields: Fields, text: string): string | undefined {
  return findPaymentMethodWithSource(fields, text.split('\n'))?.value;
}
