import { convertDemo, demoCurrency, formatMoney } from '@receipts/common';

// The demo rates live in common: the sample workbook the api writes uses the same figures.
export { convertDemo, DEMO_RATES, demoCurrency, SAMPLE_BASE_PRICE } from '@receipts/common';

/** A demo USD amount converted and formatted in the chosen currency. */
export function formatDemo(usd: number, code: string): string {
  const target = demoCurrency(code);
  return formatMoney(convertDemo(usd, target), target);
}
