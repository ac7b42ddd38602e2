import { CATEGORIES, formatMoney, type IssueField, type ReceiptView } from '@receipts/common';
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent, type ReactNode } from 'react';
import { messageOf } from '../lib/api.js';
import { issuesByField } from '../lib/upload-rules.js';
import { saveReceipt, type ReceiptCorrection } from '../lib/receipts-api.js';

const MONEY_FIELDS = [
  ['subtotal', 'Subtotal'],
  ['tax', 'Tax'],
  ['tip', 'Tip'],
  ['discount', 'Discount'],
  ['total', 'Total'],
] as const;

function Field({ label, children, issues }: { label: string; children: ReactNode; issues?: string[] }) {
  return (
    <div className={`detail-field${issues?.length ? ' detail-field-issue' : ''}`}>
      <dt>{label}</dt>
      <dd>
        {children}
        {issues?.map((issue) => (
          <span key={issue} className="issue-note" role="note">
            ⚠ {issue}
          </span>
        ))}
      </dd>
    </div>
  );
}

/** Spec §2 Receipt Details: fields only when present, money when not null, USD when no currency. */
export function ReceiptDetailsModal({
  receipt,
  filename,
  open,
  onOpenChange,
  onExport,
  onSaved,
}: {
  receipt: ReceiptView;
  filename?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onExport?: () => void;
  onSaved?: (receipt: ReceiptView) => void;
}) {
  const [editing, setEditing] = useState(false);
  // Opened from a list without a Radix trigger: focus goes back to whatever opened it.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  const currency = receipt.currency ?? 'USD';
  const { byField, general } = issuesByField(receipt.issues);
  const issuesOf = (f: IssueField) => byField[f];

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) setEditing(false);
        onOpenChange(o);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">Receipt Details</Dialog.Title>
          {filename && <p className="muted dialog-subtitle">{filename}</p>}
          {editing ? (
            <CorrectionForm
              receipt={receipt}
              onCancel={() => setEditing(false)}
              onSaved={(saved) => {
                setEditing(false);
                onSaved?.(saved);
              }}
            />
          ) : (
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
                      <Field label="Merchant" issues={issuesOf('merchantName')}>
                        {receipt.merchantName}
                      </Field>
                    )}
                    {receipt.date && (
                      <Field label="Date" issues={issuesOf('date')}>
                        {receipt.date}
                      </Field>
                    )}
                    {receipt.time && <Field label="Time">{receipt.time}</Field>}
                    {receipt.paymentMethod && <Field label="Payment method">{receipt.paymentMethod}</Field>}
                    <Field label="Category">{receipt.category}</Field>
                    {receipt.receiptNumber && <Field label="Receipt number">{receipt.receiptNumber}</Field>}
                    {receipt.tin && <Field label="TIN">{receipt.tin}</Field>}
                  </dl>
                </section>
                <section aria-labelledby="financial-summary">
                  <h3 id="financial-summary">Financial summary</h3>
                  <dl>
                    {MONEY_FIELDS.map(([key, label]) =>
                      receipt[key] != null ? (
                        <Field key={key} label={label} issues={issuesOf(key as IssueField)}>
                          <span className={key === 'total' ? 'amount-total' : undefined}>{formatMoney(receipt[key]!, currency)}</span>
                        </Field>
                      ) : null,
                    )}
                    <Field label="Currency">{currency}</Field>
                  </dl>
                </section>
              </div>
              <section aria-labelledby="line-items">
                <h3 id="line-items">Line items ({receipt.items.length})</h3>
                {receipt.items.length === 0 ? (
                  <p className="muted">No line items were found on this receipt.</p>
                ) : (
                  <div className="items-scroll" tabIndex={0} role="region" aria-labelledby="line-items">
                    <table className="table">
                      <thead>
                        <tr>
                          <th scope="col">Item</th>
                          <th scope="col" className="num">Qty</th>
                          <th scope="col" className="num">Price</th>
                          <th scope="col" className="num">Amount</th>
                        </tr>
                      </thead>
                      <tbody>
                        {receipt.items.map((item, i) => (
                          <tr key={i}>
                            <td>{item.description || 'Unknown item'}</td>
                            <td className="num">{item.qty ?? ''}</td>
                            <td className="num">{item.unitPrice != null ? formatMoney(item.unitPrice, currency) : ''}</td>
                            <td className="num">{item.amount != null ? formatMoney(item.amount, currency) : ''}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
              <section aria-labelledby="raw-text">
                <h3 id="raw-text">Raw OCR text</h3>
                <pre className="raw-text">{receipt.rawText || '(no text recognised)'}</pre>
              </section>
              <div className="dialog-actions">
                {onSaved && (
                  <button type="button" className="btn btn-outline" onClick={() => setEditing(true)}>
                    Correct fields
                  </button>
                )}
                {onExport && (
                  <button type="button" className="btn btn-primary" onClick={onExport}>
                    Export to Excel
                  </button>
                )}
                <Dialog.Close asChild>
                  <button type="button" className="btn btn-ghost">
                    Close
                  </button>
                </Dialog.Close>
              </div>
            </>
          )}
          <Dialog.Close className="dialog-x" aria-label="Close">
            ✕
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const numberOrNull = (v: FormDataEntryValue | null): number | null => {
  const s = String(v ?? '').trim();
  return s === '' ? null : Number(s);
};
const textOrNull = (v: FormDataEntryValue | null): string | null => {
  const s = String(v ?? '').trim();
  return s === '' ? null : s;
};

/** Corrects what OCR misread; the server validates again and answers with the new issues. */
function CorrectionForm({ receipt, onCancel, onSaved }: { receipt: ReceiptView; onCancel: () => void; onSaved: (r: ReceiptView) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { byField } = issuesByField(receipt.issues);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const patch: ReceiptCorrection = {
      merchantName: textOrNull(data.get('merchantName')),
      date: textOrNull(data.get('date')),
      time: textOrNull(data.get('time')),
      paymentMethod: textOrNull(data.get('paymentMethod')),
      currency: textOrNull(data.get('currency'))?.toUpperCase() ?? receipt.currency ?? 'USD',
      category: String(data.get('category')) as ReceiptView['category'],
      subtotal: numberOrNull(data.get('subtotal')),
      tax: numberOrNull(data.get('tax')),
      tip: numberOrNull(data.get('tip')),
      discount: numberOrNull(data.get('discount')),
      total: numberOrNull(data.get('total')),
    };
    const bad = MONEY_FIELDS.find(([k]) => patch[k] != null && (!Number.isFinite(patch[k]) || patch[k]! < 0));
    if (bad) {
      setError(`${bad[1]} must be a number of at least 0.`);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onSaved(await saveReceipt(receipt.id, patch));
    } catch (err) {
      setError(messageOf(err, 'Could not save the changes. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  const input = (name: keyof ReceiptCorrection, label: string, props: Record<string, unknown> = {}) => {
    const issues = byField[name as IssueField];
    const value = receipt[name as keyof ReceiptView];
    return (
      <div className="form-field" key={name}>
        <label htmlFor={`fix-${name}`}>{label}</label>
        <input id={`fix-${name}`} name={name} defaultValue={value == null ? '' : String(value)} aria-invalid={Boolean(issues?.length)} {...props} />
        {issues?.map((i) => (
          <span key={i} className="issue-note">
            ⚠ {i}
          </span>
        ))}
      </div>
    );
  };

  return (
    <form className="correction-form" onSubmit={(e) => void submit(e)} noValidate>
      <div className="form-grid">
        {input('merchantName', 'Merchant')}
        {input('date', 'Date', { type: 'date' })}
        {input('time', 'Time', { placeholder: 'HH:MM' })}
        {input('paymentMethod', 'Payment method')}
        {input('currency', 'Currency', { maxLength: 3, defaultValue: receipt.currency ?? 'USD' })}
        <div className="form-field">
          <label htmlFor="fix-category">Category</label>
          <select id="fix-category" name="category" defaultValue={receipt.category}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        {MONEY_FIELDS.map(([k, label]) => input(k, label, { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' }))}
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save corrections'}
        </button>
      </div>
    </form>
  );
}
