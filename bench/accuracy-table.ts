// The accuracy table both accuracy benchmarks print: per set, per half (tune, report) and per kind.
import { HALVES, itemScores, type FieldChecks, type Half, type ItemTally, type SetName } from '#test-support/receipt-data';

/** One receipt as read: what was right, whether it was called ready for export, its items against the labels. */
export interface ScoredReceipt {
  set: SetName;
  file: string;
  half: Half;
  kind: string;
  checks: FieldChecks;
  /** Ready for export: quality ≥ 0.6 and no open flag (the age of the date aside: the sets are years old). */
  ready: boolean;
  items?: ItemTally;
}

const pct = (right: number, of: number) => (of === 0 ? '—' : `${Math.round((right / of) * 100)} %`);

function field(rows: readonly ScoredReceipt[], name: keyof FieldChecks): string {
  const labelled = rows.filter((r) => r.checks[name] !== undefined);
  return pct(labelled.filter((r) => r.checks[name]).length, labelled.length);
}

/** Of the receipts called ready, the share with total, date, merchant and currency all right; and the share called ready. */
export function readiness(rows: readonly ScoredReceipt[]): { precision: number; coverage: number; ready: number } {
  const labelled = rows.filter((r) => r.checks.allFour !== undefined);
  const ready = labelled.filter((r) => r.ready);
  return { precision: ready.filter((r) => r.checks.allFour).length / Math.max(1, ready.length), coverage: ready.length / Math.max(1, labelled.length), ready: ready.length };
}

function row(label: string, rows: readonly ScoredReceipt[]): string {
  const r = readiness(rows);
  const withItems = rows.filter((x) => x.items);
  const items = withItems.length > 0 ? itemScores(withItems.map((x) => x.items!)) : null;
  const itemCell = items ? `${items.precision.toFixed(2)} / ${items.recall.toFixed(2)} / ${items.f1.toFixed(2)} (${withItems.length})` : '—';
  const readyCells = rows.some((x) => x.checks.allFour !== undefined) ? `${(r.precision * 100).toFixed(0)} % (${r.ready}) | ${(r.coverage * 100).toFixed(0)} %` : '— | —';
  return `| ${label} | ${rows.length} | ${field(rows, 'total')} | ${field(rows, 'date')} | ${field(rows, 'merchant')} | ${field(rows, 'currency')} | ${field(rows, 'allThree')} | ${field(rows, 'allFour')} | ${readyCells} | ${field(rows, 'tax')} | ${field(rows, 'subtotal')} | ${itemCell} |`;
}

export const TABLE_HEADER = [
  '| set · half · kind | n | total | date | merchant | currency (no hint) | total, date, merchant | and currency | ready: precision (n) | ready: coverage | tax where printed | subtotal where printed | items P / R / F1 (receipts) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** The table's rows for one side's readings: each set whole, each half, each kind within each half. */
export function accuracyRows(rows: readonly ScoredReceipt[], sets: readonly SetName[]): string[] {
  const out: string[] = [];
  for (const set of sets) {
    const ofSet = rows.filter((r) => r.set === set);
    if (ofSet.length === 0) continue;
    out.push(row(`**${set}**`, ofSet));
    const kinds = [...new Set(ofSet.map((r) => r.kind))].sort();
    for (const half of HALVES) {
      const ofHalf = ofSet.filter((r) => r.half === half);
      out.push(row(`${set} · ${half}`, ofHalf));
      if (kinds.length > 1) for (const kind of kinds) out.push(row(`${set} · ${half} · ${kind}`, ofHalf.filter((r) => r.kind === kind)));
    }
  }
  for (const half of HALVES) out.push(row(`**every set · ${half}**`, rows.filter((r) => r.half === half)));
  return out;
}
