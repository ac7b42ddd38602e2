import { DEFAULT_CURRENCY } from '../currency-options.js';
import type { LineItem, ReceiptView } from '../receipt.schema.js';
import type { ExportSource } from './export-rows.js';
import { displayDecimals } from './money-format.rule.js';

/** Fixed demo rates from USD for the sample table, sample price and sample workbook (spec §9); not live rates. */
export const DEMO_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.85, GBP: 0.75, JPY: 110, CAD: 1.25, AUD: 1.35, CHF: 0.92, CNY: 6.5, INR: 75, SGD: 1.35,
  HKD: 7.8, SEK: 8.5, NOK: 8.8, DKK: 6.3, PLN: 3.9, BRL: 5.2, MXN: 20, KRW: 1200, THB: 33, PHP: 50,
};

/** The sample result's price in USD (spec §2). */
export const SAMPLE_BASE_PRICE = 84.12;

/** The currency the demo is shown in: the chosen one when it has a demo rate, else USD. */
export function demoCurrency(code: string): string {
  return code in DEMO_RATES ? code : DEFAULT_CURRENCY;
}

/** A USD amount in `code` at the fixed demo rate, rounded as that currency is written. */
export function convertDemo(usd: number, code: string): number {
  const target = demoCurrency(code);
  const scale = 10 ** displayDecimals(target);
  return Math.round(usd * DEMO_RATES[target]! * scale) / scale;
}

/** The home page's sample result: one grocery receipt of 12 items whose total is SAMPLE_BASE_PRICE (USD). */
const SAMPLE_ITEMS: ReadonlyArray<[string, number, number]> = [
  ['Organic Bananas', 2, 1.99],
  ['Whole Milk 1L', 1, 3.49],
  ['Sourdough Bread', 1, 5.25],
  ['Free-Range Eggs 12', 1, 6.49],
  ['Cheddar Cheese', 1, 7.99],
  ['Chicken Breast', 1, 11.86],
  ['Baby Spinach', 2, 3.5],
  ['Greek Yogurt', 3, 1.79],
  ['Olive Oil 500ml', 1, 9.99],
  ['Pasta 500g', 2, 1.89],
  ['Tomatoes', 1, 4.2],
  ['Coffee Beans', 1, 8.49],
];
const SAMPLE_SUBTOTAL = 77.89;
export const SAMPLE_MERCHANT = 'Green Valley Grocers';
export const SAMPLE_ITEM_COUNT = SAMPLE_ITEMS.length;
/** What the sample download is called (`.xlsx`). */
export const SAMPLE_EXPORT_NAME = 'sample_receipts';

/** The sample receipt as the workbook's source, in `currency` at the demo rates (USD when it has none). */
export function sampleExport(currency: string): ExportSource[] {
  const code = demoCurrency(currency);
  const items: LineItem[] = SAMPLE_ITEMS.map(([description, qty, price]) => ({
    description,
    qty,
    unitPrice: convertDemo(price, code),
    amount: convertDemo(price * qty, code),
  }));
  const subtotal = convertDemo(SAMPLE_SUBTOTAL, code);
  const total = convertDemo(SAMPLE_BASE_PRICE, code);
  const scale = 10 ** displayDecimals(code);
  const receipt: ReceiptView = {
    id: '00000000-0000-4000-8000-000000000084',
    merchantName: SAMPLE_MERCHANT,
    date: '2025-01-08',
    time: '14:32',
    currency: code === 'USD' ? undefined : code,
    subtotal,
    // The tax is what the rounded subtotal leaves of the rounded total, so the sample adds up in every currency.
    tax: Math.round((total - subtotal) * scale) / scale,
    tip: null,
    discount: null,
    total,
    paymentMethod: 'Credit Card',
    category: 'grocery',
    receiptNumber: '004417',
    quality: 0.96,
    items,
    rawText: `${SAMPLE_MERCHANT.toUpperCase()}\n12 ITEMS\nTOTAL ${total}`,
    issues: [],
    flags: [],
    valid: true,
  };
  return [{ filename: 'sample-receipt.jpg', receipt }];
}
