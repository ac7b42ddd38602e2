import { DEFAULT_CURRENCY, displayDecimals, formatMoney } from '@receipts/common';

/** Fixed demo rates from USD for the sample table and sample price (spec §9); not live rates. */
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

/** A demo USD amount converted and formatted in the chosen currency. */
export function formatDemo(usd: number, code: string): string {
  const target = demoCurrency(code);
  return formatMoney(convertDemo(usd, target), target);
}
