import { MONEY_MAX, type ReceiptRecord } from '../receipt.schema.js';

/**
 * Money: finite and never negative (spec §5). Reads amounts as receipts print them and as OCR
 * garbles them: thousands separators, a currency prefix, a comma or colon for the decimal point.
 */
export function validMoney(value: unknown): number | null {
  const n = typeof value === 'string' ? parseAmount(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : null;
}

/**
 * One printed amount with exactly two decimals (three decimals is an OCR error, not money); a
 * colon is OCR's decimal point, except in a time of day ("06:33PM").
 * Not global: a shared /g pattern carries `lastIndex` from one caller to the next, so callers
 * that need every match make their own copy.
 */
export const AMOUNT_PATTERN = /(?<![\d.,:])(?:[A-Z]{1,3}\$?|[$€£¥₱₹])?\s?(-?\d{1,3}(?:[ ,]\d{3})*|-?\d+)\s?(?:[.,]|:(?!\d{2}\s?[AaPp]\.?[Mm]\b))\s?(\d{2})(?![\d]|[:.]\d)/;

/**
 * A whole amount as currencies without minor units print it (JPY, CLP, KRW): 4,389 · 4, 389 (OCR) · 100.300 ·
 * ¥1 162 · \2,967 (OCR's ¥). Groups of three after a separator, so 12.50 is not read as 1250;
 * at most nine digits, so a bar code is not an amount.
 */
export const WHOLE_AMOUNT_PATTERN = /(?<![\d.,:])(?:[$¥\\￥]|円)?\s?(-?\d{1,3}(?:[,.]\s?\d{3}){1,3}|-?\d{1,3} \d{3}(?![\d ,.])|-?\d{1,9})(?![\d]|[.,:]\d)(?:\s?円)?/;

const toNumber = (m: RegExpMatchArray) => Number(`${m[1]!.replace(/[ ,]/g, '')}.${m[2]}`);

export function parseAmount(text: string): number | null {
  const match = AMOUNT_PATTERN.exec(text);
  return match ? toNumber(match) : null;
}

/** Every amount on a line, left to right. */
export function amountsIn(line: string): number[] {
  return [...line.matchAll(new RegExp(AMOUNT_PATTERN.source, 'g'))].map(toNumber);
}

/** Every whole amount on a line, left to right (for currencies without minor units). */
export function wholeAmountsIn(line: string): number[] {
  return [...line.matchAll(new RegExp(WHOLE_AMOUNT_PATTERN.source, 'g'))].map((m) => Number(m[1]!.replace(/[,.\s]/g, '')));
}

/** Currencies whose amounts have no minor unit on receipts. */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['JPY', 'KRW', 'CLP', 'VND', 'IDR', 'ISK', 'HUF', 'PYG', 'UGX', 'COP']);

/** The amounts reader for a currency: whole amounts where there are no cents. */
export function amountReader(currency: string | undefined): (line: string) => number[] {
  return currency && ZERO_DECIMAL_CURRENCIES.has(currency) ? wholeAmountsIn : amountsIn;
}

const MONEY_FIELDS = ['subtotal', 'tax', 'tip', 'discount', 'total'] as const;
const inBounds = (n: number | null | undefined) => n === null || n === undefined || Math.abs(n) <= MONEY_MAX;

/**
 * The record without amounts past MONEY_MAX: such a number is a misreading (a run of digits
 * taken for a total), and storing it would overflow the money columns. Dropped, validation then
 * reports the field as missing.
 */
export function withinMoneyBounds(receipt: ReceiptRecord): ReceiptRecord {
  const bounded: ReceiptRecord = { ...receipt };
  for (const field of MONEY_FIELDS) if (!inBounds(bounded[field])) bounded[field] = undefined;
  bounded.items = receipt.items.map((item) => ({
    ...item,
    unitPrice: inBounds(item.unitPrice) ? item.unitPrice : null,
    amount: inBounds(item.amount) ? item.amount : null,
  }));
  return bounded;
}
