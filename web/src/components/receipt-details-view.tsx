import { formatMoney, type IssueField, type ReceiptView, type SourcedField } from '@receipts/common';
import type { ReactNode } from 'react';
import type { FieldTarget } from '../lib/receipt-draft.js';
import { issuesByField } from '../lib/upload-rules.js';
import { ColumnHeads } from './column-heads.js';
import { DetailField, IssueNotes, MONEY_FIELDS, type Locate } from './receipt-field.js';
import './receipt-details-view.css';

/** Which fields have a place on the picture, and which one is shown. */
export interface Locator {
  has: (target: FieldTarget) => boolean;
  active: FieldTarget | null;
  show: (target: FieldTarget) => void;
}

const same = (a: FieldTarget | null, b: FieldTarget) =>
  a !== null && ('field' in a ? 'field' in b && a.field === b.field : 'item' in b && a.item === b.item);

/** Spec §2 Receipt Details: fields only when present, money when not null, USD when no currency; a field read from a line shows its place. */
export function ReceiptDetailsView({ receipt, locator, checks }: { receipt: ReceiptView; locator?: Locator; checks?: ReactNode }) {
  const currency = receipt.currency ?? 'USD';
  // A flag a person accepted is answered: its field shows that, not the warning.
  const accepted = new Set((receipt.acceptedIssues ?? []).map((a) => a.issue));
  const { byField } = issuesByField(receipt.flags.filter((f) => !accepted.has(f.message)));
  const { byField: checkedByField } = issuesByField(receipt.flags.filter((f) => accepted.has(f.message)));
  const locate = (target: FieldTarget): Locate | undefined =>
    locator?.has(target) ? { active: same(locator.active, target), onClick: () => locator.show(target) } : undefined;
  const field = (key: SourcedField, label: string, value: ReactNode, issues?: string[]) => (
    <DetailField key={key} label={label} issues={issues} checked={!!checkedByField[key as IssueField]} locate={locate({ field: key })}>
      {value}
    </DetailField>
  );

  return (
    <>
      {checks}
      <div className="details-grid">
        <section aria-labelledby="basic-info">
          <h3 id="basic-info">Basic information</h3>
          <dl>
            {receipt.merchantName && field('merchantName', 'Merchant', receipt.merchantName, byField.merchantName)}
            {receipt.date && field('date', 'Date', receipt.date, byField.date)}
            {receipt.time && field('time', 'Time', receipt.time)}
            {receipt.paymentMethod && field('paymentMethod', 'Payment method', receipt.paymentMethod)}
            <DetailField label="Category">{receipt.category}</DetailField>
            {receipt.tags && receipt.tags.length > 0 && <DetailField label="Tags">{receipt.tags.join(', ')}</DetailField>}
            {receipt.receiptNumber && field('receiptNumber', 'Receipt number', receipt.receiptNumber)}
            {receipt.tin && field('tin', 'TIN', receipt.tin)}
          </dl>
        </section>
        <section aria-labelledby="financial-summary">
          <h3 id="financial-summary">Financial summary</h3>
          <dl>
            {MONEY_FIELDS.map(([key, label]) =>
              receipt[key] != null
                ? field(key, label, <span className={key === 'total' ? 'amount-total' : undefined}>{formatMoney(receipt[key]!, currency)}</span>, byField[key as IssueField])
                : null,
            )}
            <DetailField label="Currency" issues={byField.currency} checked={!!checkedByField.currency}>
              {currency}
            </DetailField>
          </dl>
        </section>
      </div>
      <section aria-labelledby="line-items">
        <h3 id="line-items">Line items ({receipt.items.length})</h3>
        <IssueNotes issues={byField.items} role="note" />
        {receipt.items.length === 0 ? (
          <p className="muted">No line items were found on this receipt.</p>
        ) : (
          <div className="items-scroll" tabIndex={0} role="region" aria-labelledby="line-items">
            <table className="table">
              <ColumnHeads label="Item" numbers={['Qty', 'Price', 'Amount']} />
              <tbody>
                {receipt.items.map((item, i) => {
                  const place = locate({ item: i, part: 'description' });
                  const name = item.description || 'Unknown item';
                  return (
                    <tr key={i} className={place?.active ? 'row-active' : undefined}>
                      <td>
                        {place ? (
                          <button type="button" className="field-locate" aria-pressed={place.active} aria-label={`Show item ${i + 1} on the receipt`} onClick={place.onClick}>
                            {name}
                          </button>
                        ) : (
                          name
                        )}
                      </td>
                      <td className="num">{item.qty ?? ''}</td>
                      <td className="num">{item.unitPrice != null ? formatMoney(item.unitPrice, currency) : ''}</td>
                      <td className="num">{item.amount != null ? formatMoney(item.amount, currency) : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {receipt.taxRates && receipt.taxRates.length > 0 && (
        <section aria-labelledby="tax-rates">
          <h3 id="tax-rates">Tax by rate</h3>
          <table className="table">
            <ColumnHeads label="Rate" numbers={['Net', 'Tax', 'Gross']} />
            <tbody>
              {receipt.taxRates.map((row, i) => (
                <tr key={i}>
                  <td>{row.rate === null ? 'Not printed' : `${row.rate} %`}</td>
                  <td className="num">{formatMoney(row.net, currency)}</td>
                  <td className="num">{formatMoney(row.tax, currency)}</td>
                  <td className="num">{formatMoney(row.gross, currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section aria-labelledby="raw-text">
        <h3 id="raw-text">Raw OCR text</h3>
        <pre className="raw-text">{receipt.rawText || '(no text recognised)'}</pre>
      </section>
    </>
  );
}
