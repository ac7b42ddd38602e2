import { renderIssue, type SourcedField } from '@receipts/common';
import { useEffect, useRef, type FormEvent } from 'react';
import { emptyItem, moveItem, type DraftCheck, type DraftItem, type FieldTarget, type ItemPart, type ReceiptDraft } from '../lib/receipt-draft.js';
import { issuesByField } from '../lib/upload-rules.js';
import { CategorySelect } from './category-select.js';
import { IssueNotes, MONEY_FIELDS } from './receipt-field.js';
import './receipt-correction-form.css';

const TEXT_FIELDS: ReadonlyArray<[SourcedField, string, Record<string, unknown>]> = [
  ['merchantName', 'Merchant', {}],
  ['date', 'Date', { type: 'date' }],
  ['time', 'Time', { placeholder: 'HH:MM' }],
  ['paymentMethod', 'Payment method', {}],
  ['receiptNumber', 'Receipt number', {}],
  ['tin', 'TIN', { autoComplete: 'off' }],
];

const ITEM_PARTS: ReadonlyArray<[ItemPart, string, Record<string, unknown>]> = [
  ['description', 'Description', {}],
  ['qty', 'Qty', { inputMode: 'decimal' }],
  ['unitPrice', 'Price', { inputMode: 'decimal' }],
  ['amount', 'Amount', { inputMode: 'decimal' }],
];

/**
 * Every field and every item of the receipt, editable, checked again on each keystroke (`check`
 * is the draft's issues and typing errors). The field last focused is the one a line picked on
 * the picture fills (`onTarget`).
 */
export function ReceiptCorrectionForm({
  draft,
  check,
  onChange,
  onTarget,
  target,
  saving,
  error,
  onCancel,
  onSave,
  accepted,
}: {
  draft: ReceiptDraft;
  check: DraftCheck;
  onChange: (draft: ReceiptDraft) => void;
  onTarget: (target: FieldTarget) => void;
  target: FieldTarget | null;
  saving: boolean;
  error: string | null;
  onCancel: () => void;
  onSave: () => void;
  /** Flags a person accepted: shown as accepted, not as something to fix. */
  accepted: ReadonlySet<string>;
}) {
  const { byField } = issuesByField(check.issues.filter((i) => !accepted.has(renderIssue(i))));
  const { errors } = check;
  const setValue = (field: SourcedField | 'currency', value: string) => onChange({ ...draft, values: { ...draft.values, [field]: value } });
  const setItems = (items: DraftItem[]) => onChange({ ...draft, items });
  const setItem = (i: number, part: ItemPart, value: string) => setItems(draft.items.map((item, j) => (j === i ? { ...item, [part]: value } : item)));
  const isTarget = (t: FieldTarget) =>
    target !== null && ('field' in t ? 'field' in target && target.field === t.field : 'item' in target && target.item === t.item && target.part === t.part);

  const input = (field: SourcedField, label: string, props: Record<string, unknown>) => {
    const issues = byField[field as keyof typeof byField];
    const problem = errors[field];
    return (
      <div className={`form-field${isTarget({ field }) ? ' form-field-target' : ''}`} key={field}>
        <label htmlFor={`fix-${field}`}>{label}</label>
        <input
          id={`fix-${field}`}
          name={field}
          value={draft.values[field]}
          aria-invalid={Boolean(issues?.length || problem)}
          onFocus={() => onTarget({ field })}
          onChange={(e) => setValue(field, e.target.value)}
          {...props}
        />
        {problem && <p className="field-error">{problem}</p>}
        <IssueNotes issues={issues} />
      </div>
    );
  };

  // Correcting starts at the first doubtful field (or the first field): typing goes where a person looks.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    (form.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]') ?? form.current?.querySelector<HTMLInputElement>('input'))?.focus();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave();
  };

  return (
    <form ref={form} className="correction-form" onSubmit={submit} noValidate aria-label="Correct the receipt">
      <p className="muted small">Click a field, then a line on the picture to fill it from there — or type.</p>
      <div className="form-grid">
        {TEXT_FIELDS.map(([field, label, props]) => input(field, label, props))}
        <div className="form-field">
          <label htmlFor="fix-currency">Currency</label>
          <input
            id="fix-currency"
            name="currency"
            maxLength={3}
            value={draft.values.currency}
            aria-invalid={Boolean(byField.currency?.length || errors.currency)}
            onChange={(e) => setValue('currency', e.target.value.toUpperCase())}
          />
          {errors.currency && <p className="field-error">{errors.currency}</p>}
          <IssueNotes issues={byField.currency} />
        </div>
        <CategorySelect id="fix-category" value={draft.category} onChange={(category) => onChange({ ...draft, category })} />
        <div className="form-field">
          <label htmlFor="fix-tags">Tags</label>
          <input
            id="fix-tags"
            name="tags"
            placeholder="e.g. client A, travel"
            aria-describedby="fix-tags-hint"
            aria-invalid={Boolean(errors.tags)}
            value={draft.tags}
            onChange={(e) => onChange({ ...draft, tags: e.target.value })}
          />
          <p id="fix-tags-hint" className="muted small">
            Separated by commas
          </p>
          {errors.tags && <p className="field-error">{errors.tags}</p>}
        </div>
        {MONEY_FIELDS.map(([field, label]) => input(field, label, { inputMode: 'decimal' }))}
      </div>
      {check.issues.length > 0 && (
        <ul className="issue-list" aria-label="Issues as it stands" aria-live="polite">
          {check.issues.map(renderIssue).map((i) =>
            accepted.has(i) ? (
              <li key={i} className="text-green">
                ✓ {i} (accepted)
              </li>
            ) : (
              <li key={i}>⚠ {i}</li>
            ),
          )}
        </ul>
      )}

      <fieldset className="items-editor">
        <legend>Line items ({draft.items.length})</legend>
        <IssueNotes issues={byField.items} />
        {draft.items.length === 0 && <p className="muted small">No line items. Add the ones the receipt lists, or leave it empty.</p>}
        <ol className="item-rows">
          {draft.items.map((item, i) => (
            <li key={item.key} className="item-row" aria-label={`Item ${i + 1}`}>
              {ITEM_PARTS.map(([part, label, props]) => {
                const id = `fix-item-${item.key}-${part}`;
                const problem = errors[`items.${i}.${part}`];
                return (
                  <div key={part} className={`item-cell item-${part}${isTarget({ item: i, part }) ? ' form-field-target' : ''}`}>
                    <label htmlFor={id}>
                      {label}
                      <span className="visually-hidden"> of item {i + 1}</span>
                    </label>
                    <input id={id} value={item[part]} aria-invalid={Boolean(problem)} onFocus={() => onTarget({ item: i, part })} onChange={(e) => setItem(i, part, e.target.value)} {...props} />
                    {problem && <p className="field-error">{problem}</p>}
                  </div>
                );
              })}
              <div className="item-tools">
                <button type="button" className="btn btn-ghost btn-sm" aria-label={`Move item ${i + 1} up`} disabled={i === 0} onClick={() => setItems(moveItem(draft.items, i, -1))}>
                  ↑
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Move item ${i + 1} down`}
                  disabled={i === draft.items.length - 1}
                  onClick={() => setItems(moveItem(draft.items, i, 1))}
                >
                  ↓
                </button>
                <button type="button" className="btn btn-ghost btn-sm text-red" aria-label={`Remove item ${i + 1}`} onClick={() => setItems(draft.items.filter((_, j) => j !== i))}>
                  ✕
                </button>
              </div>
            </li>
          ))}
        </ol>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => setItems([...draft.items, emptyItem()])}>
          + Add item
        </button>
      </fieldset>

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
