const MONTHS: Record<string, number> = {
  JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, SEPT: 9, OCT: 10, NOV: 11, DEC: 12,
};

/** Currencies of countries that write month first; everyone else writes day first. */
const MONTH_FIRST_CURRENCIES = new Set(['USD', 'PHP', 'CAD']);

export function isDayFirst(currency: string | undefined): boolean {
  return !MONTH_FIRST_CURRENCIES.has(currency ?? 'USD');
}

const pad = (n: number) => String(n).padStart(2, '0');

function expandYear(y: number): number {
  return y < 100 ? 2000 + y : y;
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2100) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * Orders two numeric parts into (day, month): the preferred order unless it cannot be a date,
 * e.g. a first part over 12 is a day whatever the preference (spec §5 swap).
 */
export function normalizeDayMonth(a: number, b: number, y: number, dayFirst: boolean): string | null {
  const year = expandYear(y);
  const [d, m] = dayFirst ? [a, b] : [b, a];
  if (isRealDate(year, m, d)) return `${year}-${pad(m)}-${pad(d)}`;
  if (isRealDate(year, d, m)) return `${year}-${pad(d)}-${pad(m)}`;
  return null;
}

const SEP = '[\\/\\-.]';
const PATTERNS: Array<{ re: RegExp; read: (g: string[], dayFirst: boolean) => string | null }> = [
  // 2018-01-05, 2016/05/01
  {
    re: new RegExp(`(?<!\\d)(\\d{4})${SEP}(\\d{1,2})${SEP}(\\d{1,2})(?!\\d)`),
    read: (g) => {
      const [y, m, d] = [Number(g[1]), Number(g[2]), Number(g[3])];
      return isRealDate(y, m, d) ? `${y}-${pad(m)}-${pad(d)}` : null;
    },
  },
  // 07 MAY 2018, 02/JAN/2017, 7-Jun-18
  {
    re: /(?<!\d)(\d{1,2})[\s\/\-.]*(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEPT?|OCT|NOV|DEC)[A-Z]*[\s\/\-.,]*(\d{4}|\d{2})(?!\d)/i,
    read: (g) => {
      const y = expandYear(Number(g[3]));
      const m = MONTHS[g[2]!.toUpperCase()]!;
      const d = Number(g[1]);
      return isRealDate(y, m, d) ? `${y}-${pad(m)}-${pad(d)}` : null;
    },
  },
  // May 7, 2018
  {
    re: /(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEPT?|OCT|NOV|DEC)[A-Z]*\.?\s+(\d{1,2}),?\s+(\d{4})/i,
    read: (g) => {
      const y = Number(g[3]);
      const m = MONTHS[g[1]!.toUpperCase()]!;
      const d = Number(g[2]);
      return isRealDate(y, m, d) ? `${y}-${pad(m)}-${pad(d)}` : null;
    },
  },
  // 21/09/2017, 19-03-2018, 01/03/18, 7.6.2018
  {
    re: new RegExp(`(?<![\\d.])(\\d{1,2})\\s?${SEP}\\s?(\\d{1,2})\\s?${SEP}\\s?(\\d{4}|\\d{2})(?![\\d]|\\.\\d)`),
    read: (g, dayFirst) => normalizeDayMonth(Number(g[1]), Number(g[2]), Number(g[3]), dayFirst),
  },
];

/** The first date printed in `line`, as YYYY-MM-DD. */
export function parseDate(line: string, dayFirst: boolean): string | null {
  let best: { index: number; date: string } | null = null;
  for (const { re, read } of PATTERNS) {
    const match = re.exec(line);
    if (!match) continue;
    const date = read(match as unknown as string[], dayFirst);
    if (date && (!best || match.index < best.index)) best = { index: match.index, date };
  }
  return best?.date ?? null;
}

/** The receipt's date: one on a line that says "date" first, else the first one printed. */
export function findDate(lines: readonly string[], dayFirst: boolean): string | null {
  const labelled = lines.filter((l) => /\bdate\b|tarikh/i.test(l));
  for (const line of [...labelled, ...lines]) {
    const date = parseDate(line, dayFirst);
    if (date) return date;
  }
  return null;
}

/** HH:MM or HH:MM:SS (24 h), from "10:20:37 AM" or "2:05 pm" as printed. */
export function findTime(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = /(?<![\d.:])([01]?\d|2[0-3])[:.]([0-5]\d)(?::([0-5]\d))?(?![\d.])\s*([AP]\.?M\.?)?/i.exec(line);
    if (!m) continue;
    // A bare "12.50" is money, not a time: require seconds, a meridiem, a colon or a time label.
    if (!m[3] && !m[4] && !line.slice(m.index, m.index + 6).includes(':') && !/time|masa/i.test(line)) continue;
    let hour = Number(m[1]);
    const meridiem = m[4]?.toUpperCase().replace(/\./g, '');
    if (meridiem === 'PM' && hour < 12) hour += 12;
    if (meridiem === 'AM' && hour === 12) hour = 0;
    return `${pad(hour)}:${m[2]}${m[3] ? `:${m[3]}` : ''}`;
  }
  return null;
}
