/**
 * Money: finite and never negative (spec §5). Reads amounts as receipts print them and as OCR
 * garbles them: thousands separators, a currency prefix, a comma or colon for the decimal point.
 */
export function validMoney(value: unknown): number | null {
  const n = typeof value === 'string' ? parseAmount(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : null;
}

/** Matches one printed amount with exactly two decimals (three decimals is an OCR error, not money). */
export const AMOUNT_PATTERN = /(?<![\d.,:])(?:[A-Z]{1,3}\$?|[$€£¥₱₹])?\s?(-?\d{1,3}(?:[ ,]\d{3})*|-?\d+)\s?[.,:]\s?(\d{2})(?![\d]|[:.]\d)/g;

export function parseAmount(text: string): number | null {
  AMOUNT_PATTERN.lastIndex = 0;
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) return null;
  return Number(`${match[1]!.replace(/[ ,]/g, '')}.${match[2]}`);
}

/** Every amount on a line, left to right. */
export function amountsIn(line: string): number[] {
  return [...line.matchAll(AMOUNT_PATTERN)].map((m) => Number(`${m[1]!.replace(/[ ,]/g, '')}.${m[2]}`));
}
