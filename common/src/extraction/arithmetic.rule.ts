import type { LineItem, ReceiptRecord, TaxRate } from '../receipt.schema.js';
import { plausibleTaxRate } from './tax-rate.rule.js';

/** Items sum to the subtotal (or the total) within a cent per item, or they were misread. */
export function itemsAgree(sum: number, count: number, subtotal: number | null, total: number | null): boolean {
  const slack = 0.01 * count + 0.005;
  return (subtotal !== null && Math.abs(sum - subtotal) <= slack) || (total !== null && Math.abs(sum - total) <= slack);
}

/**
 * Every item line that states its quantity, unit price and amount multiplies out (within a cent,
 * or 1 % of the amount for weighed goods rounded at the till); a line that does not was misread,
 * or made up. Coupons and deposits carry a negative amount against a positive price.
 */
export function itemLinesHold(items: readonly LineItem[]): boolean {
  return items.every((item) => {
    if (item.qty == null || item.unitPrice == null || item.amount == null || item.qty <= 0) return true;
    const amount = Math.abs(item.amount);
    return Math.abs(item.qty * item.unitPrice - amount) <= Math.max(0.01, amount * 0.01) + 1e-9;
  });
}

/**
 * The tax per rate while it still makes the receipt's tax (within a cent a row): rows that no
 * longer add up to it (a person changed the tax) say nothing true any more and are dropped.
 */
export function taxRatesThatHold(r: Pick<ReceiptRecord, 'tax' | 'taxRates'>): TaxRate[] {
  const rows = r.taxRates ?? [];
  if (rows.length === 0 || r.tax == null) return [];
  const sum = rows.reduce((s, row) => s + row.tax, 0);
  return Math.abs(sum - r.tax) <= 0.01 * rows.length + 1e-9 ? [...rows] : [];
}

/** Below this rate the sum most likely misses a cent or two, not a tax (the lowest rates charged are ~2 %). */
const MIN_DERIVED_RATE = 0.02;

/**
 * The tax of a receipt that prints its tax line but not an amount we could read: what the
 * subtotal (printed, or the items' sum) lacks of the total, when that is a rate the currency's
 * country charges. Null otherwise.
 */
export function taxFromSum(subtotal: number | null, total: number | null, currency: string | undefined): number | null {
  if (subtotal === null || total === null || subtotal <= 0) return null;
  const tax = Math.round((total - subtotal) * 100) / 100;
  return tax >= subtotal * MIN_DERIVED_RATE && plausibleTaxRate(currency, tax, total) ? tax : null;
}
