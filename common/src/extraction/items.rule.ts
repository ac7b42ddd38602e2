import type { LineItem } from '../receipt.schema.js';
import type { RecognizedField } from '../recognized-document.js';
import { fieldMoney, fieldText } from './fields.rule.js';
import { editDistance } from './edit-distance.js';
import { keywordSource, SUMMARY_WORDS } from './keywords/index.js';
import { AMOUNT_PATTERN } from './money.rule.js';
import { lineKind } from './totals.rule.js';

/** The record keeps at most this many items (the workbook's 20 item slots). */
export const MAX_ITEMS = 20;

/** An item's amount: money, or money taken off (a coupon, a deposit returned) when the service gives it negative. */
function itemAmount(field: RecognizedField | undefined): number | null {
  const value = field?.value;
  if (typeof value === 'number' && value < 0) {
    const off = fieldMoney({ value: -value });
    return off === null ? null : -off;
  }
  return fieldMoney(field);
}

/** Items the service recognised (spec §3 line item; description defaults to Unknown Item). */
export function itemsFromFields(items: RecognizedField | undefined): LineItem[] {
  return (items?.values ?? []).map((item) => {
    const f = item.fields ?? {};
    const qtyText = fieldText(f.Quantity);
    return {
      description: fieldText(f.Description) ?? 'Unknown Item',
      qty: qtyText !== undefined && Number.isFinite(Number(qtyText)) ? Number(qtyText) : null,
      unitPrice: fieldMoney(f.Price),
      amount: itemAmount(f.TotalPrice) ?? itemAmount(f.Amount),
    };
  });
}

/** Kinds of line that end the item block: the receipt's sums. */
const BLOCK_END = new Set(['subtotal', 'total', 'strong', 'inclusive', 'cash', 'change']);
/** Kinds that are never items, wherever they stand. */
const NEVER_ITEM = new Set(['ignore', 'tax', 'tip', 'rounding', 'card', ...BLOCK_END]);
/** Column headers of an item table, in the languages of the keyword tables: only header words on the line. */
const HEADER_WORD =
  '(description|descriptions|desc|item|items|qty|quantity|price|u\\.?\\s*price|u\\/p|s\\/price|unit\\s*price|amount|amt|gross|net|nett|code|code&desc|total|menu|disc|coupon|artikel|menge|preis|betrag|bezeichnung|produit|d(é|e)signation|prix|qt(é|e)|art(í|i)culo|cant\\.?|precio|importe|produto|quantidade|valor|omschrijving|aantal|prijs|bedrag|articolo|quantit(à|a)|prezzo|tax|sr\\d?|zr|zrl|rm|myr|eur|usd|\\$|€|%|@|\\d{1,2}\\s?%|[:()\\/&.#*-])';
const COLUMN_HEADER = new RegExp(`^(${HEADER_WORD}\\s*)+$`, 'iu');
/** Lines that are never an item's description: times, phone numbers, pages, opening hours, staff. */
const NOT_A_DESCRIPTION = new RegExp(
  `\\b(uhr|hrs|tel|phone|fax|telefon|tel(é|e)fono|telefone|page|seite|cashier|server|staff|table|pax|salesperson|operator)\\b|電話|\\d{2,5}-\\d{2,4}-\\d{3,4}|${keywordSource('date')}|${keywordSource('time')}|${keywordSource('receiptNumber')}\\s*[:#.]`,
  'iu',
);
/** Stock codes, shelf locations and pack sizes printed between a description and its amount ("WA16 - 24", "*S", "KQ7 - 12/48"). */
const CODE_LINE = /^\*?[A-Z]{0,3}\d[\d\-\/ ]*[A-Z]?$|^\*?[A-Z]{1,2}$|^\S{2,10}\s?-\s?\d{1,4}\/\d{1,4}$/;

/**
 * A label of the sums block as OCR misspells it ("Suototal", "ROUNKING", "TAXT AMT", "CashAmount"):
 * within a letter of a sums word (two for words of seven letters or more), its words run together.
 */
export function isGarbledSumsLabel(description: string): boolean {
  const letters = description.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (letters.length < 5) return false;
  return SUMMARY_WORDS.some((word) => editDistance(letters, word, 2) <= (word.length >= 7 ? 2 : 1));
}

/** A description awaiting its amount on the following lines, with the unit price printed beside it. */
interface Pending {
  description: string;
  unitPrice?: number;
}

/** A description ending in "@ unit price". */
const UNIT_PRICE_AT_END = /^(.*\p{L}.*?)\s*@\s*(\d+[.,]\d{2})\s*$/u;
/** A tax-code column on its own line. */
const TAX_CODE_LINE = /^(SR|ZR|ZRL|S|Z|T|N|X|D)$/;

/** A date or a clock time: the header's or the payment's line, never an item. */
const DATE_OR_TIME = /\b\d{1,4}[\/.-]\d{1,2}[\/.-]\d{2,4}\b|(?<![\d.,])\d{1,2}:\d{2}(?![\d.,])/;

interface Money {
  value: number;
  index: number;
  end: number;
}

/** Amounts on a line with their places; "2.00-" (a trailing minus) is negative. */
function moneyIn(line: string, wholeAmounts: boolean): Money[] {
  const pattern = wholeAmounts
    ? /(?<![\d.,:])(?:[$¥\\￥])?\s?(-?\d{1,3}(?:[,.]\d{3}){1,3}|-?\d{2,9})(?![\d]|[.,:]\d)(?:\s?円)?/g
    : new RegExp(AMOUNT_PATTERN.source, 'g');
  return [...line.matchAll(pattern)].map((m) => {
    const raw = wholeAmounts ? Number(m[1]!.replace(/[,.]/g, '')) : Number(`${m[1]!.replace(/[ ,]/g, '')}.${m[2]}`);
    const end = m.index! + m[0].length;
    const trailingMinus = /^\s?-(?![\d])/.test(line.slice(end));
    // The pattern's currency prefix may have swallowed a word's end ("LEMAK 9.00"): start at the digits.
    return { value: trailingMinus ? -Math.abs(raw) : raw, index: m.index! + Math.max(0, m[0].search(/-?\d/)), end };
  });
}

/** A tax code after the last number, printed apart or glued to it ("540 SR", "500SR"). */
const TRAILING_TAX_CODE = /^(.*?\d)\s*(SR|ZRL|ZR|S|Z|T|N|X)?\s*[|]?\s*$/;

/**
 * A thermal print's decimal points lost in OCR ("0.5 COPPER PIPE 800 400 SR", "2231 3 12 40 3720 SR"):
 * the last number, whole, read as cents where a quantity times the unit price before it gives it
 * exactly — the arithmetic is the evidence, so nothing else is rewritten. The line with the points
 * put back ("… 0.5 x 8.00 4.00 SR"), or the line as it was.
 */
export function restoreLostPoints(line: string): string {
  const split = TRAILING_TAX_CODE.exec(line);
  if (!split) return line;
  const tokens = split[1]!.split(/\s+/);
  const code = split[2] ? ` ${split[2]}` : '';
  const last = tokens[tokens.length - 1]!;
  if (!/^\d{3,7}$/.test(last) || tokens.length < 3) return line;
  const cents = Number(last);
  const qtyOf = (t: string) => Number(t.replace(',', '.'));
  const isQty = (t: string | undefined) => t !== undefined && /^\d{1,3}(?:[.,]\d{1,3})?$/.test(t) && qtyOf(t) > 0;
  // The unit price: printed with its point, whole (points lost too), or split at its point ("12 40").
  const units: Array<{ value: number; start: number }> = [];
  const before = tokens[tokens.length - 2]!;
  if (/^\d{1,5}[.,]\d{2}$/.test(before)) units.push({ value: Number(before.replace(',', '.')), start: tokens.length - 2 });
  if (/^\d{2,7}$/.test(before)) units.push({ value: Number(before) / 100, start: tokens.length - 2 });
  if (/^\d{2}$/.test(before) && /^\d{1,5}$/.test(tokens[tokens.length - 3] ?? '')) units.push({ value: Number(`${tokens[tokens.length - 3]}.${before}`), start: tokens.length - 3 });
  for (const unit of units) {
    // The quantity just before the unit price, or first on the line ("Qty Description Price Total").
    const candidates = [unit.start - 1, 0].filter((i, n, all) => i >= 0 && i < unit.start && all.indexOf(i) === n && isQty(tokens[i]));
    for (const q of candidates) {
      const qty = qtyOf(tokens[q]!);
      if (unit.value <= 0 || Math.abs(qty * unit.value * 100 - cents) > 0.5) continue;
      const description = tokens.filter((_, i) => i !== q && i < unit.start).join(' ');
      return `${description} ${tokens[q]} x ${unit.value.toFixed(2)} ${(cents / 100).toFixed(2)}${code}`.trim();
    }
  }
  return line;
}

/** A number that is a dimension ("6.4X9.25") or carries a unit glued to it ("1.5L"), not money. */
function isSize(line: string, m: Money): boolean {
  return /\d[.,]\d+[xX×*]$/.test(line.slice(0, m.index)) || /^\p{L}/u.test(line.slice(m.end));
}

/**
 * What may follow an item's amount: a tax code, a reduced-rate mark or a currency ("B", "A *", "SR", "※",
 * "EUR/kg"); a lone 5, 8 or 2 is an S, B or Z code as OCR reads thermal print.
 */
const TAX_CODE_TAIL = /^\s*(-|[A-Z]{1,2}\d?|ZRL|\*|[A-Z]\s?\*|€|EUR|[A-Z]{3}\/\w+|\(?[A-Z]\)?|[※★☆軽外内]|[528]R?)?\s*$/i;
/** OCR noise after the amount of a photographed line ("£2.29 eae", "1,99 ¢"): short, no digits, no word. */
const NOISE_TAIL = /^\s+[^\d]{1,6}$/;

/** Whether the text after a number lets it be the line's amount: "1.25L STOP" is a size, not a price. */
function endsAnItem(tail: string): boolean {
  if (TAX_CODE_TAIL.test(tail)) return true;
  return NOISE_TAIL.test(tail) && !/[A-Z]{3}/.test(tail);
}

/** "2 x", "0,792 kg x", "3 @", "4 Stk x", "(2 @" (restaurant tills: "Bud Light (2 @3.70) 7.40"): a quantity and the sign before a unit price. */
const QTY_SIGN = /(?:^|\s|\()(\d{1,3}(?:[.,]\d{1,3})?)\s*(?:kg|g|lb|lbs|stk|st|pcs|pc|un|ea|点|個|コ)?\s*[x×@*]\s*$/i;
const LEADING_QTY = /^(\d{1,3})\s*[x×*]?\s+(?=\p{L})/iu;
/** Article numbers and bar codes printed before a description, with the tax code before them ("SR 100100000035- Vegetable"). */
const LEADING_CODE = /^(?:(?:\S\s+)?(?:SR|ZRL|ZR|TX)\s+)?(\d{4,}|[A-Z]?\d{5,})(-\s*|\s+)/;

const CURRENCY_AT_END = /\s?(RM|S\$|\$|€|£|¥|EUR|USD|GBP|CHF|CAD|AUD|MYR)\s*$/i;

const round2 = (n: number) => Math.round(n * 100) / 100;
const near = (a: number, b: number) => Math.abs(a - b) < 0.015;

function cleanDescription(text: string): string {
  return text
    .replace(LEADING_CODE, '')
    .replace(CURRENCY_AT_END, '')
    .replace(/[\s:.\-*=~_|(]+$/, '')
    .replace(/^[\s:.\-*=~_|•>]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const hasLetters = (s: string) => (s.match(/\p{L}/gu) ?? []).length >= 2;
/** An article code where a name would stand ("KT4410", "HB/02-7"): the name may be printed under it. */
const STOCK_CODE = /^(?=.*\d)(?!.*\p{L}{3})[\p{L}\d\/.#-]+$/u;

/**
 * One printed line as an item, or as the quantity part of one: "desc qty x unit amount",
 * "qty desc amount", "desc amount [tax code]", "0,792 kg x 2,49 [amount]" (no description).
 */
export function parseItemLine(printed: string, wholeAmounts = false): (LineItem & { descriptionless?: boolean; stockCode?: boolean }) | null {
  const line = wholeAmounts ? printed : restoreLostPoints(printed);
  // A size in the description ("ENVELOPE 6.4X9.25", "1.5L") is no price: only the last number may be one anyway.
  const money = moneyIn(line, wholeAmounts).filter((m, n, all) => n === all.length - 1 || !isSize(line, m));
  if (money.length === 0) return null;
  const amount = money[money.length - 1]!;
  if (!endsAnItem(line.slice(amount.end))) return null;
  let left = line.slice(0, money[0]!.index).replace(CURRENCY_AT_END, '');
  let qty: number | null = null;
  let unitPrice: number | null = money.length >= 2 ? money[money.length - 2]!.value : null;
  const sign = QTY_SIGN.exec(left);
  if (sign) {
    qty = Number(sign[1]!.replace(',', '.'));
    left = left.slice(0, sign.index);
  } else if (money.length >= 2) {
    // "desc qty unit amount" without a sign: a whole number just before the unit price.
    const bare = /\s(\d{1,3})\s*$/.exec(left);
    if (bare && unitPrice !== null && near(Number(bare[1]) * unitPrice, amount.value)) {
      qty = Number(bare[1]);
      left = left.slice(0, bare.index);
    }
  }
  const leading = LEADING_QTY.exec(left.replace(LEADING_CODE, ''));
  if (leading && qty === null) {
    qty = Number(leading[1]);
    left = left.replace(LEADING_CODE, '').slice(leading[0].length);
  }
  // A unit price only where the quantity confirms it.
  if (qty !== null && unitPrice !== null && !near(qty * unitPrice, amount.value)) unitPrice = null;
  if (qty !== null && unitPrice === null && money.length === 1 && sign) {
    // "2 x 1.50" with no amount: the price is the unit price.
    unitPrice = amount.value;
    const description = cleanDescription(left);
    return { description: description || 'Unknown Item', qty, unitPrice, amount: round2(qty * unitPrice), descriptionless: !hasLetters(description), stockCode: STOCK_CODE.test(description) };
  }
  if (qty !== null && unitPrice === null && qty > 0 && Number.isInteger(qty)) unitPrice = round2(amount.value / qty);
  // Money is never negative (spec §5): a deduction's sign lives on its amount only.
  if (unitPrice !== null && unitPrice < 0) unitPrice = null;
  const description = cleanDescription(left);
  return { description: description || 'Unknown Item', qty, unitPrice, amount: amount.value, descriptionless: !hasLetters(description), stockCode: STOCK_CODE.test(description) };
}

/** A line that can only be a description: letters, no amount, not a column header or a keyword line. */
function isDescriptionLine(line: string, wholeAmounts: boolean): boolean {
  return hasLetters(line) && parseItemLine(line, wholeAmounts) === null && !COLUMN_HEADER.test(line.trim()) && !NOT_A_DESCRIPTION.test(line) && lineKind(line) === null;
}

/** The numbers printed under a description (one box per line): "2 X", "SR", "1.70", "165 SR". */
function isNumberLine(line: string): boolean {
  // "1% 7.90" is "1X 7.90" as OCR reads it.
  return /^[\d\s.,:xX@*%\-()]*(SR|ZRL|ZR|S|Z|T|N|X)?\s*$/.test(line.trim()) && /\d/.test(line);
}

/**
 * Items between the receipt's header and its sums, in the layouts receipts print:
 * "desc qty x unit amount", "qty desc amount", "desc amount [tax code]", a weight or count line
 * ("0,792 kg x 2,49 EUR/kg") under its item, and the amount on the lines after a description.
 * Coupons, deposit returns and savings printed among the items are items with a negative
 * amount. At most MAX_ITEMS, each with the index of the line its amount was read from.
 */
export function itemsFromTextWithSources(lines: readonly string[], wholeAmounts = false): Array<{ item: LineItem; line: number }> {
  const found: Array<{ item: LineItem; line: number }> = [];
  let pending: Pending | null = null;
  for (let i = 0; i < lines.length && found.length < MAX_ITEMS; i++) {
    const line = lines[i]!;
    const kind = lineKind(line);
    if (kind !== null && BLOCK_END.has(kind) && found.length > 0) break;
    if (kind !== null && NEVER_ITEM.has(kind)) {
      pending = null;
      continue;
    }
    if (NOT_A_DESCRIPTION.test(line) || DATE_OR_TIME.test(line)) continue;
    if (pending && isNumberLine(line)) {
      const run = numberRun(lines, i);
      const item = itemFromRun(pending, run.texts, wholeAmounts);
      if (item) found.push({ item, line: i + run.amountOffset(item.amount) });
      if (item) pending = null;
      i += run.texts.length - 1;
      continue;
    }
    if (CODE_LINE.test(line.trim())) continue;
    const priced = UNIT_PRICE_AT_END.exec(line);
    if (priced) {
      // "TUBE T8 @16.00": the quantity and the amount follow on the lines under it.
      pending = { description: cleanDescription(priced[1]!), unitPrice: Number(priced[2]!.replace(',', '.')) };
      continue;
    }
    if (isDescriptionLine(line, wholeAmounts)) {
      pending = { description: cleanDescription(line) };
      continue;
    }
    const parsed = parseItemLine(line, wholeAmounts);
    if (!parsed) continue;
    const { descriptionless, stockCode, ...item } = parsed;
    // The sums block's label garbled: the items have ended.
    if (!descriptionless && isGarbledSumsLabel(item.description)) {
      if (found.length > 0) break;
      continue;
    }
    if (stockCode && i + 1 < lines.length && isDescriptionLine(lines[i + 1]!, wholeAmounts)) {
      // "KT4410 2 3.00 6.00" over "KITCHEN TOWEL 2PLY": the name is printed under the code.
      found.push({ item: { ...item, description: cleanDescription(lines[i + 1]!) }, line: i });
      pending = null;
      i++;
      continue;
    }
    if (descriptionless) {
      // A quantity line: it details the item above it (or, with a description pending, names that one).
      const previous = found[found.length - 1];
      if (pending) {
        const split = splitLeadingNumber(pending.description, item.amount ?? null);
        found.push({ item: { ...item, description: split.description, qty: item.qty ?? split.qty }, line: i });
        pending = null;
      } else if (previous && previous.line === i - 1 && item.qty !== null && previous.item.amount !== null && previous.item.amount !== undefined && near(item.amount ?? NaN, previous.item.amount)) {
        previous.item = { ...previous.item, qty: item.qty, unitPrice: item.unitPrice };
      } else if (i + 1 < lines.length && isDescriptionLine(lines[i + 1]!, wholeAmounts) && !NOT_A_DESCRIPTION.test(lines[i + 1]!)) {
        // Numbers first, the description on the line under them ("1 D 4.00 SR" / "White Rice").
        const split = splitLeadingNumber(cleanDescription(lines[i + 1]!), item.amount ?? null);
        found.push({ item: { ...item, description: split.description, qty: item.qty ?? split.qty }, line: i });
        i++;
      }
      continue;
    }
    // A discount line among the items, or a line printing a rate, is an item only when printed as a deduction.
    if ((kind === 'discount' || /%(?!\s?\d)/.test(line)) && (item.amount ?? 0) >= 0) continue;
    if (kind === 'discount' || (item.amount ?? 0) < 0 || hasLetters(item.description)) found.push({ item, line: i });
    pending = null;
  }
  return found;
}

/** The lines of numbers starting at `start`, and where in them an amount was printed. */
function numberRun(lines: readonly string[], start: number) {
  const texts: string[] = [];
  // Tax-code columns ("SR") sit between the numbers once the run has begun.
  for (let j = start; j < lines.length && (isNumberLine(lines[j]!) || (j > start && TAX_CODE_LINE.test(lines[j]!.trim()))) && texts.length < 6; j++) texts.push(lines[j]!);
  return {
    texts,
    amountOffset: (amount: number | null | undefined) => Math.max(0, texts.findIndex((t) => moneyIn(t, false).some((m) => amount != null && near(m.value, amount)))),
  };
}

/**
 * A number printed before a description: its quantity when it divides the amount into whole
 * cents ("5 PVC WALLPLUG" 5.00), else a stock code ("261 HELANG MINYAK" 24.40); dropped either way.
 */
function splitLeadingNumber(printed: string, amount: number | null): { description: string; qty: number | null } {
  const leading = /^(\d{1,3}(?:\.\d{1,3})?)\s+(?=\S)/.exec(printed);
  if (!leading) return { description: printed, qty: null };
  const n = Number(leading[1]);
  const cents = amount !== null && n > 0 ? (amount / n) * 100 : NaN;
  return { description: printed.slice(leading[0].length), qty: Math.abs(cents - Math.round(cents)) < 1e-6 ? n : null };
}

/**
 * An item from a description and the number lines under it: qty × unit = amount where they
 * agree (the unit price may be printed with the description: "TUBE @16.00"), else the largest amount.
 */
function itemFromRun(pending: Pending, texts: readonly string[], wholeAmounts: boolean): LineItem | null {
  const amounts = texts.flatMap((t) => moneyIn(t, wholeAmounts).map((m) => m.value));
  if (amounts.length === 0) return null;
  const units = pending.unitPrice !== undefined ? [pending.unitPrice] : amounts;
  const quantities = texts.map((t) => /^(\d{1,3}(?:\.\d)?)\s*(?:[xX@*]|$)/.exec(t.trim())?.[1]).filter((q): q is string => q !== undefined).map(Number);
  const leading = /^(\d{1,3}(?:\.\d{1,3})?)\s+(?=\S)/.exec(pending.description);
  if (leading) quantities.push(Number(leading[1]));
  for (const qty of quantities) {
    for (const a of amounts) for (const u of units) if (near(qty * u, a) && (a !== u || qty === 1)) {
      return { description: splitLeadingNumber(pending.description, a).description, qty, unitPrice: u, amount: a };
    }
  }
  const amount = Math.max(...amounts);
  const split = splitLeadingNumber(pending.description, amount);
  return { description: split.description, qty: quantities[0] ?? split.qty, unitPrice: null, amount };
}

export function itemsFromText(lines: readonly string[], wholeAmounts = false): LineItem[] {
  return itemsFromTextWithSources(lines, wholeAmounts).map((f) => f.item);
}

/** Words that place an item, used when the merchant name says nothing. */
export function itemWords(items: readonly LineItem[]): string {
  return items.map((i) => i.description).join(' ');
}
