import { dateOrderOfCurrency } from './countries.table.js';
import { keywordSource, MONTH_NAMES } from './keywords/index.js';

/** Whether numeric dates put the day first in the countries trading in `currency` (countries.table.ts); most of the world does. */
export function isDayFirst(currency: string | undefined): boolean {
  return (dateOrderOfCurrency(currency) ?? 'dmy') === 'dmy';
}

const pad = (n: number) => String(n).padStart(2, '0');

function expandYear(y: number): number {
  return y < 100 ? 2000 + y : y;
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2100) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const iso = (y: number, m: number, d: number) => (isRealDate(y, m, d) ? `${y}-${pad(m)}-${pad(d)}` : null);

/**
 * Orders two numeric parts into (day, month): the preferred order unless it cannot be a date,
 * e.g. a first part over 12 is a day whatever the preference (spec §5 swap).
 */
export function normalizeDayMonth(a: number, b: number, y: number, dayFirst: boolean): string | null {
  const year = expandYear(y);
  const [d, m] = dayFirst ? [a, b] : [b, a];
  return iso(year, m, d) ?? iso(year, d, m);
}

/** A date printed in a line: where it starts and how sure its day/month order is. */
export interface DateMatch {
  date: string;
  index: number;
  /** Day and month are both ≤ 12 and numeric: the order came from the preference. */
  ambiguous: boolean;
  /** The order the digits were read in when ambiguous: true = day first. */
  dayFirst?: boolean;
}

const MONTH_WORD = [...MONTH_NAMES.keys()].map((k) => k.replace(/\./g, '\\.')).join('|');
const monthOf = (word: string) => MONTH_NAMES.get(word.toLowerCase().replace(/\.$/, ''));

type Reader = (g: RegExpExecArray, dayFirst: boolean) => Omit<DateMatch, 'index'> | null;

/**
 * Where a year may end: not inside a longer number or an amount ("12.50"), but a time may follow it
 * glued on, as tills print "Feb17'0809:41PM" and "11 March 201814:20", or after a comma ("03/11/09,04:15 PM").
 */
const YEAR_END = '(?:(?![\\d]|[.,]\\d)|(?=[0-2]?\\d:[0-5]\\d)|(?=,\\s?[0-2]?\\d:[0-5]\\d))';
const sure = (date: string | null) => (date ? { date, ambiguous: false } : null);

/** Date shapes, each with its reader. Separators must agree (12-09/19 is not a date). */
const PATTERNS: Array<{ re: RegExp; read: Reader }> = [
  // 2018-01-05, 2016/05/01, 2026/ 6/13, 2012.06.28
  {
    re: /(?<![\d.,])(20\d{2}|19\d{2})\s?([\/\-.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?![\d,]|\.\d)/,
    read: (g) => sure(iso(Number(g[1]), Number(g[3]), Number(g[4]))),
  },
  // 2026年05月03日, 令和8年6月13日
  {
    re: /(令和|R)?\s?(\d{1,4})\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日/,
    read: (g) => {
      const year = g[1] ? 2018 + Number(g[2]) : Number(g[2]);
      return sure(iso(year, Number(g[3]), Number(g[4])));
    },
  },
  // 07 MAY 2018, 02/JAN/2017, 20-Jun-2021, 12 September 2019, 3. März 2020, 12 de marzo de 2024
  {
    re: new RegExp(`(?<![\\d.,])(\\d{1,2})\\.?[\\s\\/\\-.]*(?:de\\s+|of\\s+)?(${MONTH_WORD})\\.?[\\s\\/\\-.,']*(?:de\\s+)?(\\d{4}|\\d{2})${YEAR_END}`, 'iu'),
    read: (g) => sure(iso(expandYear(Number(g[3])), monthOf(g[2]!)!, Number(g[1]))),
  },
  // May 7, 2018 · August 3 , 2014 · Jun 30,2022 · Mar. 24 2026
  {
    // The day and the year apart: "MAYO 300" (an item and its size) is no date.
    // "Sep19'15", "Apr04' 12": the year's apostrophe (or OCR's quote or prime) alone parts it from the day; "Jul 1420184:05 PM",
    // "Nov141906:12PM" (a day of two digits): nothing does, a time following. OCR reads a day's 0 as O ("MAYO7' 13"). A year of
    // four digits is 19xx or 20xx and never a time's hour, so "Feb17'0809:41PM" is 2008 at 09:41 and "Nov141906:12PM" 2019 at 06:12.
    re: new RegExp(
      `(?<![\\p{L}])(${MONTH_WORD})\\.?\\s*([O0-3]?\\d)(?:st|nd|rd|th)?(?:\\s*[,.]\\s*['’′"]?|\\s+['’′"]?|['’′"]\\s*|(?=(?:19|20)\\d{2}[0-2]?\\d:[0-5]\\d)|(?<=[\\p{L}.\\s][O0-3]\\d)(?=\\d{2}[0-2]?\\d:[0-5]\\d))((?:19|20)\\d{2}(?!:)|\\d{2})${YEAR_END}`,
      'iu',
    ),
    read: (g) => sure(iso(expandYear(Number(g[3])), monthOf(g[1]!)!, Number(g[2]!.replace(/O/i, '0')))),
  },
  // 21/09/2017, 19-03-2018, 01/03/18, 7.6.2018, 26-03-18, 12 06 2011
  {
    re: new RegExp(`(?<![\\d.,\\/-]|\\d:)(\\d{1,2})\\s?([\\/\\-.])\\s?(\\d{1,2})\\s?\\2\\s?(\\d{4}|\\d{2})(?!:\\d|\\2\\d)${YEAR_END}`),
    read: (g, dayFirst) => {
      const [a, b] = [Number(g[1]), Number(g[3])];
      const date = normalizeDayMonth(a, b, Number(g[4]), dayFirst);
      if (!date) return null;
      const ambiguous = a <= 12 && b <= 12 && a !== b;
      return { date, ambiguous, dayFirst: ambiguous ? dayFirst : a > 12 ? true : b > 12 ? false : undefined };
    },
  },
  // Glued to the digits around it, as PaddleOCR drops spaces: "…1306/21/202104:27 PM" (a time must follow).
  {
    re: /(\d{2})([\/\-.])(\d{2})\2(20\d{2}|\d{2})(?=[0-2]?\d:[0-5]\d)/,
    read: (g, dayFirst) => sure(normalizeDayMonth(Number(g[1]), Number(g[3]), Number(g[4]), dayFirst)),
  },
  {
    re: /(?<![\d.,:])(\d{1,2}) (\d{1,2}) (20\d{2})(?!\d)/,
    read: (g, dayFirst) => sure(normalizeDayMonth(Number(g[1]), Number(g[2]), Number(g[3]), dayFirst)),
  },
];

/** Every date printed in `line`, left to right (one per place). */
export function datesIn(printed: string, dayFirst: boolean): DateMatch[] {
  // OCR reads the O of a month as a zero ("0ct02"); the same length, so places stay where they were.
  const line = printed.replace(/(?<![\p{L}\d])0(?=(ct|kt)\p{L}*\.?\s*\d)/giu, 'O');
  const found: DateMatch[] = [];
  for (const { re, read } of PATTERNS) {
    for (const match of line.matchAll(new RegExp(re.source, `${re.flags}g`))) {
      const date = read(match as unknown as RegExpExecArray, dayFirst);
      const index = match.index!;
      if (date && !found.some((f) => Math.abs(f.index - index) < 4)) found.push({ ...date, index });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The first date printed in `line`, as YYYY-MM-DD. */
export function parseDate(line: string, dayFirst: boolean): string | null {
  return datesIn(line, dayFirst)[0]?.date ?? null;
}

const DATE_WORD = new RegExp(keywordSource('date'), 'iu');
const OTHER_DATE_WORD = new RegExp(keywordSource('otherDate'), 'iu');
/** Labels of numbers that are not dates: registers, terminals, stores, transactions. */
const DEVICE_LABEL = /(term(inal)?|tid|kasse|caisse|register|reg|pos|store|filiale|markt|lane|trans?|trx|seq|#|no\.?|nr\.?)\s*[:#.]?\s*$/i;
const TIME = /(?<![\d.:])([01]?\d|2[0-3])[:.h]([0-5]\d)(?::([0-5]\d))?(?![\d.,])/;

export interface DateCandidate {
  date: string;
  line: number;
  score: number;
  /** Day and month both ≤ 12 and nothing on the receipt settled their order: the preference did. */
  eitherWay: boolean;
}

/**
 * Every date of the receipt, scored: a date word or a time beside it raises it; expiry,
 * validity, points and period words lower it; so does a date in the future (a card's expiry)
 * or long before the others. Its place counts a little: purchases are dated at the top or in
 * the transaction block at the bottom.
 */
export function dateCandidates(lines: readonly string[], dayFirst: boolean, now?: Date): DateCandidate[] {
  const all: Array<DateMatch & { line: number }> = [];
  lines.forEach((line, i) => {
    for (const d of datesIn(line, dayFirst)) all.push({ ...d, line: i });
  });
  // The receipt's other dates settle the order: a 13/02 elsewhere means the day comes first here too.
  const sureOrder = all.find((d) => !d.ambiguous && d.dayFirst !== undefined)?.dayFirst;
  const today = now ? now.toISOString().slice(0, 10) : null;
  const candidates = all.map((d) => {
    let date = d.date;
    if (d.ambiguous && sureOrder !== undefined && sureOrder !== d.dayFirst) date = `${date.slice(0, 4)}-${date.slice(8, 10)}-${date.slice(5, 7)}`;
    const line = lines[d.line]!;
    const before = line.slice(0, d.index);
    let score = 1;
    if (DATE_WORD.test(line)) score += 2;
    if (TIME.test(line.slice(d.index)) || TIME.test(lines[d.line + 1] ?? '') && !/\d[.,]\d{2}/.test(lines[d.line + 1] ?? '')) score += 1.5;
    if (OTHER_DATE_WORD.test(before) || OTHER_DATE_WORD.test(lines[d.line - 1] ?? '') && !DATE_WORD.test(line)) score -= 3;
    if (today && date > today) score -= 4;
    // A register, terminal or store number printed like a date ("Kasse 01.02.03", "TID 12-06-11").
    if (DEVICE_LABEL.test(before)) score -= 2;
    const position = d.line / Math.max(1, lines.length - 1);
    if (position < 0.3 || position > 0.6) score += 0.3;
    return { date, line: d.line, score, eitherWay: d.ambiguous && sureOrder === undefined };
  });
  // The same date printed twice (header and card slip) is surer.
  for (const c of candidates) c.score += 0.5 * (candidates.filter((o) => o.date === c.date).length - 1);
  return candidates;
}

/** A date more than this many days from each of the receipt's other dates stands alone: a misread year, or not the purchase. */
const FAR_DAYS = 366;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

export interface FoundDate {
  date: string;
  line: number;
  /** The order of day and month came from the preference alone. */
  eitherWay: boolean;
  /** The receipt prints other dates, and this one is far from all of them. */
  farFromOthers: boolean;
}

/** The purchase date: the best-scored candidate, the earliest printed on a tie. */
export function findDateWithSource(lines: readonly string[], dayFirst: boolean, now?: Date): FoundDate | null {
  const candidates = dateCandidates(lines, dayFirst, now);
  let best: DateCandidate | null = null;
  for (const c of candidates) if (!best || c.score > best.score) best = c;
  if (!best) return null;
  const others = candidates.filter((c) => c.date !== best.date).map((c) => dayNumber(c.date));
  const farFromOthers = others.length > 0 && others.every((d) => Math.abs(d - dayNumber(best.date)) > FAR_DAYS);
  return { date: best.date, line: best.line, eitherWay: best.eitherWay, farFromOthers };
}

export function findDate(lines: readonly string[], dayFirst: boolean, now?: Date): string | null {
  return findDateWithSource(lines, dayFirst, now)?.date ?? null;
}

/**
 * HH:MM or HH:MM:SS (24 h), from "10:20:37 AM" or "2:05 pm" as printed, and its line: the one
 * on the purchase date's line or beside it first (opening hours are times too), else the first.
 */
export function findTimeWithSource(lines: readonly string[], dateLine?: number): { time: string; line: number } | null {
  const order = [...lines.keys()];
  if (dateLine !== undefined) order.sort((a, b) => Number(Math.abs(a - dateLine) > 1) - Number(Math.abs(b - dateLine) > 1) || Math.abs(a - dateLine) - Math.abs(b - dateLine) || a - b);
  for (const i of order) {
    const line = lines[i]!;
    const m = /(?<![\d.:])([01]?\d|2[0-3])[:.]([0-5]\d)(?::([0-5]\d))?(?![\d.])\s*([AP]\.?M\.?)?/i.exec(line);
    if (!m) continue;
    // A bare "12.50" is money, not a time: require seconds, a meridiem, a colon or a time label.
    if (!m[3] && !m[4] && !line.slice(m.index, m.index + 6).includes(':') && !/time|masa|uhr|heure|hora|zeit/i.test(line)) continue;
    let hour = Number(m[1]);
    const meridiem = m[4]?.toUpperCase().replace(/\./g, '');
    if (meridiem === 'PM' && hour < 12) hour += 12;
    if (meridiem === 'AM' && hour === 12) hour = 0;
    return { time: `${pad(hour)}:${m[2]}${m[3] ? `:${m[3]}` : ''}`, line: i };
  }
  return null;
}

export function findTime(lines: readonly string[], dateLine?: number): string | null {
  return findTimeWithSource(lines, dateLine)?.time ?? null;
}
