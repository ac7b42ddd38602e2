import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReceiptRecord } from '@receipts/common';
import type { LabelledItem } from './line-items.js';
import { receiptsDir } from './service-process.js';
import { labelDate, labelTotal, MERCHANT_SIMILARITY, nameSimilarity, type SroieLabel } from './sroie.js';
import type { WorldLabel } from './receipts-world.js';

/**
 * Every labelled set of ../shared, read the same way: the SROIE scans (`receipts/`, 40, and
 * `receipts-sroie-more/`, 160 of the same kind), the real-world set (`receipts-world/`) and the
 * further photos and scans (`receipts-more/`).
 */
export const SETS = ['sroie', 'sroie-more', 'world', 'more'] as const;
export type SetName = (typeof SETS)[number];

const sharedDir = path.resolve(receiptsDir, '..');
export const SET_DIRS: Record<SetName, string> = {
  sroie: receiptsDir,
  'sroie-more': path.join(sharedDir, 'receipts-sroie-more'),
  world: path.join(sharedDir, 'receipts-world'),
  more: path.join(sharedDir, 'receipts-more'),
};

export const setAvailable = (set: SetName) => existsSync(path.join(SET_DIRS[set], 'labels.json'));

/**
 * A rule may be tuned on the tune half only; the report half is looked at, never tuned on.
 * The half follows from a hash of the file's bytes, so a copy under another name (or in another
 * set) falls in the same half, and the split needs no list.
 */
export type Half = 'tune' | 'report';
export const HALVES: readonly Half[] = ['tune', 'report'];

export function halfOfBytes(bytes: Uint8Array): Half {
  return createHash('sha256').update(bytes).digest()[0]! % 2 === 0 ? 'tune' : 'report';
}

/** One labelled receipt, in the same terms whatever its set. */
export interface LabelledReceipt {
  set: SetName;
  file: string;
  path: string;
  kind: 'scan' | 'photo' | 'pdf';
  half: Half;
  /** ISO 4217; absent where the label could not tell. */
  currency?: string;
  country?: string;
  total: number | null;
  /** The transaction date and, where day and month cannot be told apart, its other reading. */
  dates: string[];
  /** The name as printed and its other printed forms. */
  merchants: string[];
  secondary: Partial<Record<'subtotal' | 'tax' | 'tip', number>>;
  items?: LabelledItem[];
}

interface MoreLabel {
  file: string;
  company?: string;
  company_alts?: string[];
  date_iso?: string;
  date_iso_alts?: string[];
  total: string;
  currency?: string;
  subtotal?: number;
  tax?: number;
  tip?: number;
  kind: 'photo' | 'scan';
  country?: string;
  items?: Array<{ description: string; amount: number }>;
}

const readLabels = <T>(set: SetName): T[] => JSON.parse(readFileSync(path.join(SET_DIRS[set], 'labels.json'), 'utf8')) as T[];
const secondaryOf = (l: Partial<Record<'subtotal' | 'tax' | 'tip', number>>) =>
  Object.fromEntries((['subtotal', 'tax', 'tip'] as const).filter((k) => l[k] !== undefined).map((k) => [k, l[k]!]));

/** The labelled receipts of a set (empty when the set is not there). */
export function loadSet(set: SetName): LabelledReceipt[] {
  if (!setAvailable(set)) return [];
  const dir = SET_DIRS[set];
  const base = (file: string) => {
    const full = path.join(dir, file);
    return { set, file, path: full, half: halfOfBytes(readFileSync(full)) };
  };
  if (set === 'sroie' || set === 'sroie-more') {
    return readLabels<SroieLabel>(set).map((l) => ({
      ...base(l.file),
      kind: 'scan',
      currency: 'MYR',
      country: 'MY',
      total: labelTotal(l),
      dates: [labelDate(l)].filter((d): d is string => d !== null),
      merchants: [l.company],
      secondary: {},
    }));
  }
  if (set === 'world') {
    return readLabels<WorldLabel>(set).map((l) => ({
      ...base(l.file),
      kind: l.kind === 'screenshot' ? 'photo' : l.kind,
      currency: l.currency,
      country: l.country,
      total: Number(l.total),
      dates: [l.date_iso, ...(l.date_iso_alts ?? [])].filter((d): d is string => !!d),
      merchants: [l.company, ...(l.company_alts ?? [])],
      secondary: secondaryOf(l),
    }));
  }
  return readLabels<MoreLabel>(set).map((l) => ({
    ...base(l.file),
    kind: l.kind,
    currency: l.currency,
    country: l.country,
    total: Number(l.total),
    dates: [l.date_iso, ...(l.date_iso_alts ?? [])].filter((d): d is string => !!d),
    merchants: [l.company, ...(l.company_alts ?? [])].filter((c): c is string => !!c),
    secondary: secondaryOf(l),
    items: l.items?.map((i) => ({ description: i.description, amount: i.amount })),
  }));
}

/** What the reading got right. A field the label does not give is absent. */
export interface FieldChecks {
  total?: boolean;
  date?: boolean;
  merchant?: boolean;
  currency?: boolean;
  /** Total, date and merchant, where all three are labelled. */
  allThree?: boolean;
  /** Total, date, merchant and currency: what "ready" promises. */
  allFour?: boolean;
  subtotal?: boolean;
  tax?: boolean;
  tip?: boolean;
}

const near = (a: number | null | undefined, b: number) => a != null && Math.abs(a - b) < 0.005;

export function checkReceipt(r: ReceiptRecord, label: LabelledReceipt): FieldChecks {
  const checks: FieldChecks = {};
  if (label.total !== null) checks.total = near(r.total, label.total);
  if (label.dates.length > 0) checks.date = !!r.date && label.dates.includes(r.date);
  if (label.merchants.length > 0) checks.merchant = label.merchants.some((m) => nameSimilarity(r.merchantName, m) >= MERCHANT_SIMILARITY);
  if (label.currency) checks.currency = (r.currency ?? 'USD') === label.currency;
  if (checks.total !== undefined && checks.date !== undefined && checks.merchant !== undefined) checks.allThree = checks.total && checks.date && checks.merchant;
  if (checks.allThree !== undefined && checks.currency !== undefined) checks.allFour = checks.allThree && checks.currency;
  for (const k of ['subtotal', 'tax'] as const) if (label.secondary[k] !== undefined) checks[k] = near(r[k], label.secondary[k]!);
  if (label.secondary.tip !== undefined) checks.tip = near(r.tip ?? 0, label.secondary.tip);
  return checks;
}
