import type { ReceiptView } from '@receipts/common';
import { useState, type FormEvent } from 'react';
import { messageOf } from '../lib/api.js';
import { saveReceipt, type ReceiptCorrection } from '../lib/receipts-api.js';
import { issuesByField } from '../lib/upload-rules.js';
import { CategorySelect } from './category-select.js';
import { IssueNotes, MONEY_FIELDS } from './receipt-field.js';

const numberOrNull = (v: FormDataEntryValue | null): number | null => {
  const s = String(v ?? '').trim();
  return s === '' ? null : Number(s);
};
const textOrNull = (v: FormDataEntryValue | null): string | null => {
  const s = String(v ?? '').trim();
  return s === '' ? null : s;
};

/** Corrects what OCR misread; the server validates again and answers with the new issues. */
export function ReceiptCorrectionForm({ receipt, onCancel, onSaved }: { receipt: ReceiptView; onCancel: () => void; onSaved: (r: ReceiptView) => void }) {
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
    const issues = byField[name as keyof typeof byField];
    const value = receipt[name as keyof ReceiptView];
    return (
      <div className="form-field" key={name}>
        <label htmlFor={`fix-${name}`}>{label}</label>
        <input id={`fix-${name}`} name={name} defaultValue={value == null ? '' : String(value)} aria-invalid={Boolean(issues?.length)} {...props} />
        <IssueNotes issues={issues} />
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
        <CategorySelect id="fix-category" defaultValue={receipt.category} />
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
