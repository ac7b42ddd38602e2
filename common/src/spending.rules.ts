import type { MemberSpending, SpendingReport } from './spending-report.schema.js';
import type { CurrencySpending, Spending } from './spending.schema.js';

/** How many merchants a currency's chart names; the rest are one "other" bar. */
export const SPENDING_TOP_MERCHANTS = 8;

/** Gaps are filled only over a span a chart can show as bars (a misread year would otherwise make hundreds). */
export const SPENDING_MAX_FILLED_MONTHS = 60;

/**
 * One group of the spending query: a currency's total (`set: 'currency'`), its total in a
 * month, a category, a merchant or of a member (`key`: the month, the category, the merchant's
 * normalized name or null for "other", the member's account id or null once it is gone), or the
 * count of receipts nothing counts (`set: 'all'`).
 */
export interface SpendingRow {
  set: 'currency' | 'month' | 'category' | 'merchant' | 'member' | 'all';
  currency: string | null;
  key: string | null;
  /** The merchant's name as most of its receipts spell it; the member's address. */
  label: string | null;
  total: number | null;
  receipts: number;
  notCounted: number;
}

const byTotal = (a: { total: number }, b: { total: number }) => b.total - a.total;

function nextMonth(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** Months oldest first, the empty ones between the first and the last put in with 0 (when the span is short enough to show). */
export function fillMonths(months: CurrencySpending['months']): CurrencySpending['months'] {
  const sorted = [...months].sort((a, b) => a.month.localeCompare(b.month));
  if (sorted.length < 2) return sorted;
  const have = new Map(sorted.map((m) => [m.month, m]));
  const filled: CurrencySpending['months'] = [];
  for (let month = sorted[0]!.month; month <= sorted.at(-1)!.month; month = nextMonth(month)) {
    if (filled.length >= SPENDING_MAX_FILLED_MONTHS) return sorted;
    filled.push(have.get(month) ?? { month, total: 0, receipts: 0 });
  }
  return filled;
}

/** The spending answer from the query's groups: one entry per currency, the one with most receipts first. */
export function spendingSummary(rows: readonly SpendingRow[]): Spending {
  const currencies = new Map<string, CurrencySpending>();
  const of = (currency: string) => {
    let entry = currencies.get(currency);
    if (!entry) currencies.set(currency, (entry = { currency, total: 0, receipts: 0, months: [], categories: [], merchants: [] }));
    return entry;
  };
  let notCounted = 0;
  for (const row of rows) {
    if (row.set === 'all') {
      notCounted = row.notCounted;
      continue;
    }
    const entry = of(row.currency!);
    const amount = { total: row.total ?? 0, receipts: row.receipts };
    if (row.set === 'currency') Object.assign(entry, amount);
    else if (row.set === 'month') entry.months.push({ month: row.key!, ...amount });
    else if (row.set === 'category') entry.categories.push({ category: row.key!, ...amount });
    else if (row.set === 'merchant') entry.merchants.push({ merchant: row.key === null ? null : (row.label ?? row.key), ...amount });
  }
  const list = [...currencies.values()].map((c) => ({
    ...c,
    months: fillMonths(c.months),
    categories: c.categories.sort((a, b) => byTotal(a, b) || a.category.localeCompare(b.category)),
    // "Other" goes last whatever its size: it is not a merchant.
    merchants: c.merchants.sort((a, b) => Number(a.merchant === null) - Number(b.merchant === null) || byTotal(a, b) || (a.merchant ?? '').localeCompare(b.merchant ?? '')),
  }));
  list.sort((a, b) => b.receipts - a.receipts || a.currency.localeCompare(b.currency));
  return { currencies: list, notCounted };
}

/**
 * A workspace's spending report from the query's groups (with its members'): the spending
 * summary, and in each currency the total of each member who uploaded, largest first.
 */
export function spendingReport(rows: readonly SpendingRow[]): Pick<SpendingReport, 'currencies' | 'notCounted'> {
  const summary = spendingSummary(rows);
  const members = new Map<string, MemberSpending[]>();
  for (const row of rows) {
    if (row.set !== 'member') continue;
    const list = members.get(row.currency!) ?? [];
    list.push({ userId: row.key, email: row.label, total: row.total ?? 0, receipts: row.receipts });
    members.set(row.currency!, list);
  }
  return {
    ...summary,
    currencies: summary.currencies.map((c) => ({ ...c, members: (members.get(c.currency) ?? []).sort((a, b) => byTotal(a, b) || (a.email ?? '').localeCompare(b.email ?? '')) })),
  };
}
