import {
  amountReader,
  displayDecimals,
  findTimeWithSource,
  isDayFirst,
  parseDate,
  SOURCED_FIELDS,
  doubtsAfterEdit,
  receiptChanges,
  receiptIssues,
  TAG_MAX,
  TAGS_PER_RECEIPT_MAX,
  uniqueTags,
  type LineItem,
  type IssueFlag,
  type ReceiptPatch,
  type ReceiptRecord,
  type ReceiptView,
  type SourcedField,
} from '@receipts/common';

/** Where each field was read, as GET /api/receipts/:id has it. */
export type FieldLines = Record<string, number | Array<number | null>>;

/** A place a value can be shown or filled: a field of the receipt, or a part of item `index`. */
export type FieldTarget = { field: SourcedField } | { item: number; part: ItemPart };
export type ItemPart = 'description' | 'qty' | 'unitPrice' | 'amount';

export const MONEY_FIELD_KEYS = ['subtotal', 'tax', 'tip', 'discount', 'total'] as const;
type MoneyField = (typeof MONEY_FIELD_KEYS)[number];
const isMoney = (field: string): field is MoneyField => (MONEY_FIELD_KEYS as readonly string[]).includes(field);

/** The text fields of the form besides the money fields, each as typed. */
export const TEXT_FIELD_KEYS = ['merchantName', 'date', 'time', 'paymentMethod', 'receiptNumber', 'tin'] as const;

export interface DraftItem {
  /** Stable across reordering (React keys). */
  key: string;
  description: string;
  qty: string;
  unitPrice: string;
  amount: string;
  /** The line it was read from; null for an item a person added. */
  line: number | null;
}

/** The correction form's state: every field as typed, the items, and where each was read. */
export interface ReceiptDraft {
  values: Record<SourcedField | 'currency', string>;
  category: string;
  /** The tags as typed, separated by commas. */
  tags: string;
  items: DraftItem[];
  sources: Partial<Record<SourcedField, number>>;
}

let itemKeys = 0;
const newKey = () => `item-${(itemKeys += 1)}`;
const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
/** An amount as the form shows it: with its currency's decimals (5.30, not 5.3). */
const amountText = (v: number | null | undefined, currency: string) => (v === null || v === undefined ? '' : v.toFixed(displayDecimals(currency)));

/** The lines a field (or an item) was read from. */
export function linesOf(fieldLines: FieldLines, target: FieldTarget): number[] {
  if ('field' in target) {
    const line = fieldLines[target.field];
    return typeof line === 'number' ? [line] : [];
  }
  const items = fieldLines.items;
  const line = Array.isArray(items) ? items[target.item] : null;
  return typeof line === 'number' ? [line] : [];
}

/** The fields read from line `index`, by label, for saying what a line on the picture is. */
export function fieldsReadFrom(fieldLines: FieldLines, index: number): string[] {
  const found: string[] = SOURCED_FIELDS.filter((f) => fieldLines[f] === index);
  const items = fieldLines.items;
  if (Array.isArray(items)) items.forEach((line, i) => line === index && found.push(`item ${i + 1}`));
  return found;
}

export function draftOf(receipt: ReceiptView, fieldLines: FieldLines): ReceiptDraft {
  const currency = receipt.currency ?? 'USD';
  const values = Object.fromEntries(
    SOURCED_FIELDS.map((f) => [f, isMoney(f) ? amountText(receipt[f], currency) : text(receipt[f])]),
  ) as ReceiptDraft['values'];
  values.currency = currency;
  const itemLines = Array.isArray(fieldLines.items) ? fieldLines.items : [];
  const sources: ReceiptDraft['sources'] = {};
  for (const f of SOURCED_FIELDS) if (typeof fieldLines[f] === 'number') sources[f] = fieldLines[f];
  return {
    values,
    category: receipt.category,
    tags: (receipt.tags ?? []).join(', '),
    items: receipt.items.map((item, i) => ({
      key: newKey(),
      description: item.description,
      qty: text(item.qty),
      unitPrice: amountText(item.unitPrice, currency),
      amount: amountText(item.amount, currency),
      line: itemLines[i] ?? null,
    })),
    sources,
  };
}

export const emptyItem = (): DraftItem => ({ key: newKey(), description: '', qty: '', unitPrice: '', amount: '', line: null });

/** Moves item `from` by `by` places (−1 up, +1 down); outside the list nothing moves. */
export function moveItem(items: readonly DraftItem[], from: number, by: number): DraftItem[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** A typed number: null when empty, NaN when not a number. */
function numberOf(typed: string): number | null {
  const s = typed.trim().replace(',', '.');
  if (s === '') return null;
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
}

export interface DraftCheck {
  /** What the draft would save, when every value can be read. */
  record: ReceiptRecord;
  /** Values that cannot be saved as typed, by form field (`items.2.amount` for an item's). */
  errors: Record<string, string>;
  /** The spec §5 issues of the draft as it stands, checked again on each keystroke, and the extraction's doubts about fields not changed. */
  issues: IssueFlag[];
}

/** The draft as a receipt, its typing errors, and its validation issues. */
export function checkDraft(draft: ReceiptDraft, base: ReceiptView, now = new Date()): DraftCheck {
  const errors: Record<string, string> = {};
  const money = (name: string, typed: string, label: string, negative = false): number | null => {
    const n = numberOf(typed);
    if (n === null) return null;
    if (Number.isNaN(n)) errors[name] = `${label} must be a number.`;
    else if (n < 0 && !negative) errors[name] = `${label} cannot be negative.`;
    return Number.isFinite(n) ? n : null;
  };
  const record: ReceiptRecord = { ...base, items: [] };
  for (const f of TEXT_FIELD_KEYS) {
    const value = draft.values[f].trim();
    (record as Record<string, unknown>)[f] = value === '' ? undefined : value;
  }
  if (record.date && !/^\d{4}-\d{2}-\d{2}$/.test(record.date)) errors.date = 'Dates are written YYYY-MM-DD.';
  for (const f of MONEY_FIELD_KEYS) record[f] = money(f, draft.values[f], f === 'tip' ? 'Tip' : f[0]!.toUpperCase() + f.slice(1));
  const currency = draft.values.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'The currency is a three-letter code, such as USD or EUR.';
  record.currency = currency === 'USD' || errors.currency ? undefined : currency;
  record.category = draft.category;
  const tags = uniqueTags(draft.tags.split(',').map((tag) => tag.trim()).filter(Boolean));
  if (tags.some((tag) => tag.length > TAG_MAX)) errors.tags = `A tag is at most ${TAG_MAX} characters.`;
  else if (tags.length > TAGS_PER_RECEIPT_MAX) errors.tags = `At most ${TAGS_PER_RECEIPT_MAX} tags on a receipt.`;
  record.tags = tags.length > 0 ? tags : undefined;
  record.items = draft.items.map((item, i): LineItem => {
    const qty = numberOf(item.qty);
    if (qty !== null && Number.isNaN(qty)) errors[`items.${i}.qty`] = 'The quantity must be a number.';
    return {
      description: item.description.trim(),
      qty: qty !== null && Number.isFinite(qty) ? qty : null,
      unitPrice: money(`items.${i}.unitPrice`, item.unitPrice, 'The price'),
      // Coupons and deposits are negative items.
      amount: money(`items.${i}.amount`, item.amount, 'The amount', true),
    };
  });
  // As the server will: a field changed answers its doubt; the others' doubts stand.
  const doubts = doubtsAfterEdit(base.flags, new Set(Object.keys(receiptChanges(base, record))), record);
  return { record, errors, issues: receiptIssues(record, doubts, now) };
}

/** The PATCH of a checked draft: every field (the server records only what changed) and where each was read. */
export function patchOf(draft: ReceiptDraft, record: ReceiptRecord): ReceiptPatch {
  const nullable = <T>(v: T | undefined | null) => (v === undefined ? null : v);
  return {
    merchantName: nullable(record.merchantName),
    date: nullable(record.date),
    time: nullable(record.time),
    currency: record.currency ?? 'USD',
    subtotal: nullable(record.subtotal),
    tax: nullable(record.tax),
    tip: nullable(record.tip),
    discount: nullable(record.discount),
    total: nullable(record.total),
    paymentMethod: nullable(record.paymentMethod),
    category: record.category,
    tags: record.tags ?? [],
    receiptNumber: nullable(record.receiptNumber),
    tin: nullable(record.tin),
    items: record.items,
    fieldLines: { ...draft.sources, items: draft.items.map((i) => i.line) },
  };
}

const TRAILING_AMOUNTS = /(\s+[-$€£¥₱₹]?\s?-?\d[\d.,]*\s*[A-Z]?)+\s*$/;

/**
 * What a line of the receipt puts into a field when a person picks it: the last amount for money,
 * the date or time printed on it, an item's words without its amounts, or the line as it reads.
 * Null when the line holds nothing of the kind.
 */
export function valueFromLine(target: FieldTarget, line: string, currency: string): string | null {
  const amounts = amountReader(currency)(line);
  const lastAmount = amounts.length > 0 ? String(amounts.at(-1)) : null;
  if ('item' in target) {
    switch (target.part) {
      case 'amount':
      case 'unitPrice':
        return lastAmount;
      case 'qty': {
        const m = /(?:^|\s)(\d{1,4})\s*(?:[x×@*]|pcs?\b|st\b)/i.exec(line);
        return m ? m[1]! : null;
      }
      case 'description':
        return line.replace(TRAILING_AMOUNTS, '').trim() || line.trim();
    }
  }
  const { field } = target;
  if (isMoney(field)) return lastAmount;
  if (field === 'date') return parseDate(line, isDayFirst(currency));
  if (field === 'time') return findTimeWithSource([line])?.time ?? null;
  return line.trim() || null;
}
