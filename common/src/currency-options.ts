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

export const DEFAULT_CURRENCY = 'USD';
const ALL = [...CURRENCIES, ...MORE_CURRENCIES];

export function currencyOption(code: string): CurrencyOption | undefined {
  return ALL.find((c) => c.value === code);
}

export function isOfferedCurrency(code: unknown): code is string {
  return typeof code === 'string' && ALL.some((c) => c.value === code);
}
