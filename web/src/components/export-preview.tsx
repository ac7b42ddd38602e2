import { demoCurrency, formatDemo } from '../lib/currency.js';
import { DEMO_RECEIPTS, type DemoReceipt } from '../lib/demo-data.js';
import { DataTable, type TableColumn } from './data-table.js';
import './export-preview.css';

/** The sample's columns, with the amounts in `shown` (headers stay left-aligned like the sheet's). */
function previewColumns(shown: string): Array<TableColumn<DemoReceipt>> {
  const money = (header: string, usd: (r: DemoReceipt) => number): TableColumn<DemoReceipt> => ({ header, cellClassName: 'num', cell: (r) => formatDemo(usd(r), shown) });
  return [
    { header: 'Merchant Name', cell: (r) => r.merchantName },
    { header: 'Date', cell: (r) => r.date },
    { header: 'Time', cell: (r) => r.time },
    money('Subtotal', (r) => r.subtotal),
    money('Tax', (r) => r.tax),
    money('Total', (r) => r.total),
    { header: 'Currency', cell: () => shown },
    { header: 'Payment Method', cell: (r) => r.paymentMethod },
    { header: 'Category', cell: (r) => r.category },
    ...([0, 1] as const).flatMap((i): Array<TableColumn<DemoReceipt>> => [
      { header: `Item ${i + 1} Desc`, cell: (r) => r.items[i].desc },
      { header: `Item ${i + 1} Qty`, cellClassName: 'num', cell: (r) => r.items[i].qty },
      money(`Item ${i + 1} Price`, (r) => r.items[i].price),
    ]),
  ];
}

/** A static sample of the Receipts sheet, converted to the chosen currency at fixed demo rates. */
export function ExportPreview({ currency }: { currency: string }) {
  const shown = demoCurrency(currency);
  return (
    <section className="section" aria-labelledby="preview-title">
      <div className="container">
        <h2 id="preview-title" className="section-title">
          Excel Export Preview
        </h2>
        <p className="section-lead">
          Every receipt becomes one row, with up to 20 line items beside it. Sample data shown in {shown}
          {shown !== currency ? ` (no demo rate for ${currency})` : ''}, converted at fixed demo rates — not live exchange rates.
        </p>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="preview-title">
          <DataTable className="sheet" columns={previewColumns(shown)} rows={DEMO_RECEIPTS} rowKey={(r) => r.merchantName} />
        </div>
      </div>
    </section>
  );
}
