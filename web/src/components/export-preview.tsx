import { DEMO_RECEIPTS } from '../lib/demo-data.js';
import { demoCurrency, formatDemo } from '../lib/currency.js';

const HEAD = ['Merchant Name', 'Date', 'Time', 'Subtotal', 'Tax', 'Total', 'Currency', 'Payment Method', 'Category'];

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
          <table className="table sheet">
            <thead>
              <tr>
                {HEAD.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
                {[1, 2].flatMap((n) =>
                  ['Desc', 'Qty', 'Price'].map((c) => (
                    <th key={`${n}${c}`} scope="col">
                      Item {n} {c}
                    </th>
                  )),
                )}
              </tr>
            </thead>
            <tbody>
              {DEMO_RECEIPTS.map((r) => (
                <tr key={r.merchantName}>
                  <td>{r.merchantName}</td>
                  <td>{r.date}</td>
                  <td>{r.time}</td>
                  <td className="num">{formatDemo(r.subtotal, shown)}</td>
                  <td className="num">{formatDemo(r.tax, shown)}</td>
                  <td className="num">{formatDemo(r.total, shown)}</td>
                  <td>{shown}</td>
                  <td>{r.paymentMethod}</td>
                  <td>{r.category}</td>
                  {r.items.flatMap((item, i) => [
                    <td key={`d${i}`}>{item.desc}</td>,
                    <td key={`q${i}`} className="num">
                      {item.qty}
                    </td>,
                    <td key={`p${i}`} className="num">
                      {formatDemo(item.price, shown)}
                    </td>,
                  ])}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
