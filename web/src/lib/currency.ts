/** A currency the selector offers (spec §3 currency option). */
export interface CurrencyOption {
  value: string;
  label: string;
  symbol: string;
}

/** The first 20 offered, in the spec's order. */
export const CURRENCIES: readonly CurrencyOption[] = [
  { value: 'USD', label: 'US Dollar', symbol: '$' },
  { value: 'EUR', label: 'Euro', symbol: '€' },
  { value: 'GBP', label: 'British Pound', symbol: '£' },
  { value: 'JPY', label: 'Japanese Yen', symbol: '¥' },
  { value: 'CAD', label: 'Canadian Dollar', symbol: 'C$' },
  { value: 'AUD', label: 'Australian Dollar', symbol: 'A$' },
  { value: 'CHF', label: 'Swiss Franc', symbol: 'CHF ' },
  { value: 'CNY', label: 'Chinese Yuan', symbol: 'CN¥' },
  { value: 'INR', label: 'Indian Rupee', symbol: '₹' },
  { value: 'SGD', label: 'Singapore Dollar', symbol: 'S$' },
  { value: 'HKD', label: 'Hong Kong Dollar', symbol: 'HK$' },
  { value: 'SEK', label: 'Swedish Krona', symbol: 'kr ' },
  { value: 'NOK', label: 'Norwegian Krone', symbol: 'kr ' },
  { value: 'DKK', label: 'Danish Krone', symbol: 'kr ' },
  { value: 'PLN', label: 'Polish Złoty', symbol: 'zł ' },
  { value: 'BRL', label: 'Brazilian Real', symbol: 'R$' },
  { value: 'MXN', label: 'Mexican Peso', symbol: 'MX$' },
  { value: 'KRW', label: 'South Korean Won', symbol: '₩' },
  { value: 'THB', label: 'Thai Baht', symbol: '฿' },
  { value: 'PHP', label: 'Philippine Peso', symbol: '₱' },
];

/** More currencies receipts commonly come in, offered after the first 20. */
export const MORE_CURRENCIES: readonly CurrencyOption[] = [
  { value: 'MYR', label: 'Malaysian Ringgit', symbol: 'RM ' },
  { value: 'IDR', label: 'Indonesian Rupiah', symbol: 'Rp ' },
  { value: 'VND', label: 'Vietnamese Dong', symbol: '₫' },
  { value: 'NZD', label: 'New Zealand Dollar', symbol: 'NZ$' },
  { value: 'ZAR', label: 'South African Rand', symbol: 'R ' },
  { value: 'AED', label: 'UAE Dirham', symbol: 'AED ' },
];

/** Fixed demo rates from USD for the sample table and sample price (spec §9); not live rates. */
export const DEMO_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.85, GBP: 0.75, JPY: 110, CAD: 1.25, AUD: 1.35, CHF: 0.92, CNY: 6.5, INR: 75, SGD: 1.35,
  HKD: 7.8, SEK: 8.5, NOK: 8.8, DKK: 6.3, PLN: 3.9, BRL: 5.2, MXN: 20, KRW: 1200, THB: 33, PHP: 50,
};

/** The sample result's price in USD (spec §2). */
export const SAMPLE_BASE_PRICE = 84.12;

/** Currencies written in whole numbers (spec §9). */
const WHOLE_NUMBER = new Set(['JPY', 'KRW']);

export const DEFAULT_CURRENCY = 'USD';
const ALL = [...CURRENCIES, ...MORE_CURRENCIES];

export function currencyOption(code: string): CurrencyOption | undefined {
  return ALL.find((c) => c.value === code);
}

export function isOfferedCurrency(code: unknown): code is string {
  return typeof code === 'string' && ALL.some((c) => c.value === code);
}

/** The currency the demo is shown in: the chosen one when it has a demo rate, else USD. */
export function demoCurrency(code: string): string {
  return code in DEMO_RATES ? code : DEFAULT_CURRENCY;
}

/** A USD amount in `code` at the fixed demo rate, rounded as that currency is written. */
export function convertDemo(usd: number, code: string): number {
  const target = demoCurrency(code);
  return roundFor(usd * DEMO_RATES[target]!, target);
}

function roundFor(amount: number, code: string): number {
  return WHOLE_NUMBER.has(code) ? Math.round(amount) : Math.round(amount * 100) / 100;
}

/** An amount with its symbol: JPY and KRW in whole numbers, every other currency with 2 decimals. */
export function formatMoney(amount: number, code: string = DEFAULT_CURRENCY): string {
  const digits = WHOLE_NUMBER.has(code) ? 0 : 2;
  const number = Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const symbol = currencyOption(code)?.symbol ?? `${code} `;
  return `${amount < 0 ? '-' : ''}${symbol}${number}`;
}

/** A demo USD amount converted and formatted in the chosen currency. */
export function formatDemo(usd: number, code: string): string {
  const target = demoCurrency(code);
  return formatMoney(convertDemo(usd, target), target);
}
