import { FREE_DAILY_LIMIT, type Lane } from '@receipts/common';
import { useLaneSpeed } from '../hooks/use-processing-times.js';
import { DataTable, type TableColumn } from './data-table.js';
import './plan-comparison.css';

type Row = [what: string, free: string, premium: string];

const COMPARISON: readonly Row[] = [
  ['Receipts', `${FREE_DAILY_LIMIT} per day`, '100 to 10,000 per month'],
  ['Excel, CSV, QuickBooks and Xero export', 'Yes', 'Yes'],
  ['E-mail notifications', 'No', 'Yes'],
];

const COLUMNS: ReadonlyArray<TableColumn<Row>> = [
  { header: 'Feature', hideHeader: true, rowHeader: true, cell: (r) => r[0] },
  { header: 'Free', cell: (r) => r[1] },
  { header: 'Premium', cell: (r) => r[2] },
];

/** Spec §2 pricing: free versus premium; the processing times as measured over the last day. */
export function PlanComparison() {
  const speedOf = useLaneSpeed();
  const measured = (lane: Lane) => {
    const speed = speedOf(lane);
    return speed ? `, typically ${speed.typical}, ${speed.within} (${speed.basis})` : '';
  };
  const rows: Row[] = [
    COMPARISON[0]!,
    ['Processing', `Standard queue${measured('standard')}`, `Express lane, ahead of the standard queue${measured('express')}`],
    ...COMPARISON.slice(1),
  ];
  return (
    <section className="section" aria-labelledby="compare-title">
      <div className="container">
        <h2 id="compare-title" className="section-title">
          Free versus Premium
        </h2>
        <div className="table-scroll">
          <DataTable className="compare" columns={COLUMNS} rows={rows} rowKey={(r) => r[0]} />
        </div>
      </div>
    </section>
  );
}
