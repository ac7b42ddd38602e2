import { displayDecimals } from './money-format.rule.js';

/**
 * Totals converted to a home currency at the receipt day's reference rate, from a rates file the
 * operator provides in the European Central Bank's CSV layout (eurofxref-hist.csv: a `Date`
 * column, then one column per currency, each row the units of that currency one euro bought that
 * day, `N/A` where none was fixed). Only rates the file holds are used: a receipt without a day,
 * in a currency the file lacks, or dated where the file has no rate near it is not converted.
 */
export interface ExchangeRates {
  /** Days with rates, oldest first (`YYYY-MM-DD`). */
  days: string[];
  /** Per currency, the day → units per euro. The euro is 1 on every day of the file. */
  rates: Map<string, Map<string, number>>;
}

/** The reference rate is fixed on working days: a receipt of a weekend or holiday takes the last rate before it, up to this many days back. */
export const RATE_LOOKBACK_DAYS = 7;

export class ExchangeRatesFileError extends Error {
  override name = 'ExchangeRatesFileError';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;

/** Reads an ECB CSV; a file that is not one is refused, naming the line. */
export function parseEcbRates(csv: string): ExchangeRates {
  const lines = csv.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines[0] ?? '').split(',').map((cell) => cell.trim());
  if (header[0] !== 'Date') throw new ExchangeRatesFileError('The exchange rates file does not start with a Date column (the ECB CSV layout).');
  const rates = new Map<string, Map<string, number>>([['EUR', new Map()]]);
  const columns = header.map((code, i) => (i > 0 && CODE.test(code) ? code : null));
  for (const code of columns) if (code) rates.set(code, new Map());
  if (rates.size === 1) throw new ExchangeRatesFileError('The exchange rates file names no currency columns.');
  const days: string[] = [];
  for (const [n, line] of lines.slice(1).entries()) {
    const cells = line.split(',').map((cell) => cell.trim());
    const day = cells[0]!;
    if (!DAY.test(day)) throw new ExchangeRatesFileError(`Line ${n + 2} of the exchange rates file has no YYYY-MM-DD date.`);
    days.push(day);
    rates.get('EUR')!.set(day, 1);
    columns.forEach((code, i) => {
      const rate = Number(cells[i]);
      if (code && cells[i] !== '' && Number.isFinite(rate) && rate > 0) rates.get(code)!.set(day, rate);
    });
  }
  if (days.length === 0) throw new ExchangeRatesFileError('The exchange rates file holds no rates.');
  days.sort();
  return { days, rates };
}

/** The currencies the file converts between. */
export const ratesCurrencies = (rates: ExchangeRates): string[] => [...rates.rates.keys()].sort();

/**
 * The last day on or before `day`, within the lookback, on which both currencies had a rate fixed,
 * with their units per euro that day; null when the file has none near it.
 */
function ratesOn(rates: ExchangeRates, from: string, to: string, day: string): { from: number; to: number; day: string } | null {
  const [ofFrom, ofTo] = [rates.rates.get(from), rates.rates.get(to)];
  if (!ofFrom || !ofTo) return null;
  const at = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(at.getTime())) return null;
  for (let back = 0; back <= RATE_LOOKBACK_DAYS; back++) {
    const candidate = new Date(at.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const [source, target] = [ofFrom.get(candidate), ofTo.get(candidate)];
    if (source !== undefined && target !== undefined) return { from: source, to: target, day: candidate };
  }
  return null;
}

export interface Conversion {
  /** The total in the home currency, rounded to its decimals. */
  amount: number;
  /** Units of the home currency per unit of the receipt's, as used. */
  rate: number;
  /** The day whose reference rates were used. */
  rateDay: string;
}

/** `amount` in `from` on `day`, in `to`; null when the file cannot say (never a made-up rate). */
export function convertAmount(rates: ExchangeRates, amount: number, from: string, to: string, day: string | undefined): Conversion | null {
  if (!day) return null;
  const fixed = ratesOn(rates, from, to, day);
  if (!fixed) return null;
  const rate = fixed.to / fixed.from;
  const scale = 10 ** displayDecimals(to);
  return { amount: Math.round(amount * rate * scale) / scale, rate: Math.round(rate * 1e6) / 1e6, rateDay: fixed.day };
}
