import { currencyOption, DEFAULT_CURRENCY } from '../currency-options.js';

/** How money of one currency is written: the symbol and decimals English-language Excel users expect. */
export interface CurrencyStyle {
  symbol: string;
  decimals: number;
}

const styles = new Map<string, CurrencyStyle>();

/**
 * The symbol Intl gives in English ("$", "€", "CA$", "₱"; a code such as "MYR" when a symbol
 * would be ambiguous) and the currency's minor digits (JPY and KRW none, spec §9).
 */
export function currencyStyle(currency: string): CurrencyStyle {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  let style = styles.get(code);
  if (!style) {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    const symbol = format.formatToParts(0).find((p) => p.type === 'currency')?.value ?? code;
    style = { symbol, decimals: format.resolvedOptions().maximumFractionDigits ?? 2 };
    styles.set(code, style);
  }
  return style;
}

/** An Excel number format showing the amount in its currency: `"$"#,##0.00`, `"MYR "#,##0.00`, `"¥"#,##0`. */
export function moneyNumFmt(currency: string): string {
  const { symbol, decimals } = currencyStyle(currency);
  const prefix = /[A-Za-z]$/.test(symbol) ? `${symbol} ` : symbol;
  return `"${prefix}"#,##0${decimals > 0 ? `.${'0'.repeat(decimals)}` : ''}`;
}

/** A plain amount for a CSV import: the currency's decimals, a dot, no symbol and no thousands separator. */
export function plainAmount(value: number, currency: string): string {
  const text = value.toFixed(currencyStyle(currency).decimals);
  // -0.00 is not an amount anyone writes.
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

/** Spec §9: amounts people read are in whole numbers for JPY and KRW, with 2 decimals for every other currency. */
export function displayDecimals(code: string): number {
  return code === 'JPY' || code === 'KRW' ? 0 : 2;
}

/**
 * An amount as the screens and e-mails show it, with the offered currency's own symbol (`RM 12.00`,
 * `¥9,253`); a currency not offered shows its code. Workbooks use `moneyNumFmt` instead.
 */
export function formatMoney(amount: number, code: string = DEFAULT_CURRENCY): string {
  const digits = displayDecimals(code);
  const number = Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const symbol = currencyOption(code)?.symbol ?? `${code} `;
  return `${amount < 0 ? '-' : ''}${symbol}${number}`;
}
