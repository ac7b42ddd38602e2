import { FREE_DAILY_LIMIT } from '@receipts/common';
import { DataTable, type TableColumn } from './data-table.js';

type Row = [what: string, free: string, premium: string];

const COMPARISON: readonly Row[] = [
  ['Receipts', `${FREE_DAILY_LIMIT} per day`, '100 to 10,000 per month'],
  ['Processing', 'Standard queue (can take 10+ minutes when busy)', 'Express lane, 2-3 minutes'],
  ['Excel, CSV, QuickBooks and Xero export', 'Yes', 'Yes'],
  ['E-mail notifications', 'No', 'Yes'],
  ['Priority support', 'No', 'Enterprise'],
];

const COLUMNS: ReadonlyArray<TableColumn<Row>> = [
  { header: 'Feature', hideHeader: true, rowHeader: true, cell: (r) => r[0] },
  { header: 'Free', cell: (r) => r[1] },
  { header: 'Premium', cell: (r) => r[2] },
];

/** Spec §2 pricing: free versus premium. */
export function PlanComparison() {
  return (
    <section className="section" aria-labelledby="compare-title">
      <div className="container">
        <h2 id="compare-title" className="section-title">
          Free versus Premium
        </h2>
        <div className="table-scroll">
          <DataTable className="compare" columns={COLUMNS} rows={COMPARISON} rowKey={(r) => r[0]} />
        </div>
      </div>
    </section>
  );
}
