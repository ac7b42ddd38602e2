import type { LineItem } from '../receipt.schema.js';

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
