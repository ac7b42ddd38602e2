import { formatMoney, type IssueField, type LineItem, type ReceiptView } from '@receipts/common';
import { issuesByField } from '../lib/upload-rules.js';
import { DataTable, type TableColumn } from './data-table.js';
import { DetailField, MONEY_FIELDS } from './receipt-field.js';

/** Spec §2 Receipt Details: fields only when present, money when not null, USD when no currency. */
export function ReceiptDetailsView({ receipt }: { receipt: ReceiptView }) {
  const currency = receipt.currency ?? 'USD';
  const { byField, general } = issuesByField(receipt.issues);
  const itemColumns: ReadonlyArray<TableColumn<LineItem>> = [
    { header: 'Item', cell: (item) => item.description || 'Unknown item' },
    { header: 'Qty', numeric: true, cell: (item) => item.qty ?? '' },
    { header: 'Price', numeric: true, cell: (item) => (item.unitPrice != null ? formatMoney(item.unitPrice, currency) : '') },
    { header: 'Amount', numeric: true, cell: (item) => (item.amount != null ? formatMoney(item.amount, currency) : '') },
  ];

  return (
    <>
      <div className={`validity ${receipt.valid ? 'validity-ok' : 'validity-bad'}`}>
        {receipt.valid ? 'Ready for export' : 'Needs review: goes to the Validation Issues sheet'} · quality {Math.round(receipt.quality * 100)}%
      </div>
      {general.length > 0 && (
        <ul className="issue-list" aria-label="Validation issues">
          {general.map((i) => (
            <li key={i}>⚠ {i}</li>
          ))}
        </ul>
      )}
      <div className="details-grid">
        <section aria-labelledby="basic-info">
          <h3 id="basic-info">Basic information</h3>
          <dl>
            {receipt.merchantName && (
              <DetailField label="Merchant" issues={byField.merchantName}>
                {receipt.merchantName}
              </DetailField>
            )}
            {receipt.date && (
              <DetailField label="Date" issues={byField.date}>
                {receipt.date}
              </DetailField>
            )}
            {receipt.time && <DetailField label="Time">{receipt.time}</DetailField>}
            {receipt.paymentMethod && <DetailField label="Payment method">{receipt.paymentMethod}</DetailField>}
            <DetailField label="Category">{receipt.category}</DetailField>
            {receipt.receiptNumber && <DetailField label="Receipt number">{receipt.receiptNumber}</DetailField>}
            {receipt.tin && <DetailField label="TIN">{receipt.tin}</DetailField>}
          </dl>
        </section>
        <section aria-labelledby="financial-summary">
          <h3 id="financial-summary">Financial summary</h3>
          <dl>
            {MONEY_FIELDS.map(([key, label]) =>
              receipt[key] != null ? (
                <DetailField key={key} label={label} issues={byField[key as IssueField]}>
                  <span className={key === 'total' ? 'amount-total' : undefined}>{formatMoney(receipt[key]!, currency)}</span>
                </DetailField>
              ) : null,
            )}
            <DetailField label="Currency">{currency}</DetailField>
          </dl>
        </section>
      </div>
      <section aria-labelledby="line-items">
        <h3 id="line-items">Line items ({receipt.items.length})</h3>
        {receipt.items.length === 0 ? (
          <p className="muted">No line items were found on this receipt.</p>
        ) : (
          <div className="items-scroll" tabIndex={0} role="region" aria-labelledby="line-items">
            <DataTable columns={itemColumns} rows={receipt.items} rowKey={(_, i) => i} />
          </div>
        )}
      </section>
      <section aria-labelledby="raw-text">
        <h3 id="raw-text">Raw OCR text</h3>
        <pre className="raw-text">{receipt.rawText || '(no text recognised)'}</pre>
      </section>
    </>
  );
}
