/**
 * The highest sales tax or VAT rate a receipt in each currency can carry, in percent, with
 * reduced rates below it. A "tax" above it was misread (a subtotal, a deposit, a line total).
 */
const MAX_TAX_RATE_PERCENT: Readonly<Record<string, number>> = {
  USD: 11.5, CAD: 15, MXN: 16, BRL: 35, CLP: 19, ARS: 27, COP: 19, PEN: 18,
  EUR: 25.5, GBP: 20, CHF: 8.1, SEK: 25, NOK: 25, DKK: 25, PLN: 23, CZK: 21, HUF: 27,
  JPY: 10, CNY: 13, KRW: 10, INR: 28, SGD: 9, MYR: 10, THB: 7, PHP: 12, IDR: 12, HKD: 0,
  AUD: 10, NZD: 15, ZAR: 15, AED: 5, SAR: 15, TRY: 20,
};
/** Rounding of printed tax amounts and rates makes the last point uncertain. */
const SLACK_PERCENT = 1;

/** Whether `tax` out of a tax-inclusive `total` is a rate the currency's country can charge. */
export function plausibleTaxRate(currency: string | undefined, tax: number, total: number): boolean {
  if (tax < 0 || tax >= total) return false;
  const max = currency ? MAX_TAX_RATE_PERCENT[currency] : undefined;
  const rate = (tax / (total - tax)) * 100;
  return rate <= (max ?? 30) + SLACK_PERCENT;
}
