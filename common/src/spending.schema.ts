import { z } from 'zod';
import { receiptListQuerySchema } from './receipt-library.schema.js';

/** GET /api/receipts/spending query: the library's filters (search, receipt-date range, category, tag, currency, validity). */
export const spendingQuerySchema = receiptListQuerySchema.pick({ q: true, from: true, to: true, category: true, tag: true, currency: true, valid: true });
export type SpendingQuery = z.infer<typeof spendingQuerySchema>;

const amount = { total: z.number(), receipts: z.number().int() };

/** Spending in one currency: its total and the same total by month, category and merchant. */
export const currencySpendingSchema = z.object({
  currency: z.string(),
  ...amount,
  /** `YYYY-MM`, oldest first; months without spending between the first and the last are there with 0. */
  months: z.array(z.object({ month: z.string(), ...amount })),
  /** Largest first. */
  categories: z.array(z.object({ category: z.string(), ...amount })),
  /** The merchants spent most with, largest first; `merchant: null` (last) is every other merchant and the receipts without one. */
  merchants: z.array(z.object({ merchant: z.string().nullable(), ...amount })),
});
export type CurrencySpending = z.infer<typeof currencySpendingSchema>;

/**
 * GET /api/receipts/spending answer. Money is never added across currencies: one entry per
 * currency, the one with most receipts first.
 */
export const spendingSchema = z.object({
  currencies: z.array(currencySpendingSchema),
  /** Receipts in the filter that no chart counts: no total, or flagged as a possible duplicate. */
  notCounted: z.number().int(),
});
export type Spending = z.infer<typeof spendingSchema>;
