import type { ReactNode } from 'react';
import './receipt-field.css';

/** The money fields of a receipt with their labels, in the spec §2 financial summary order. */
export const MONEY_FIELDS = [
  ['subtotal', 'Subtotal'],
  ['tax', 'Tax'],
  ['tip', 'Tip'],
  ['discount', 'Discount'],
  ['total', 'Total'],
] as const;

/** The validation issues about one field, shown beside it. */
export function IssueNotes({ issues, role }: { issues: readonly string[] | undefined; role?: 'note' }) {
  return issues?.map((issue) => (
    <span key={issue} className="issue-note" role={role}>
      ⚠ {issue}
    </span>
  ));
}

/** Shows where a value was read on the picture of the receipt. */
export interface Locate {
  active: boolean;
  onClick: () => void;
}

/**
 * One line of the details: its label (a button showing its place on the receipt when known), its
 * value and the open issues about it; `checked` when a person accepted every flag it had.
 */
export function DetailField({ label, children, issues, checked, locate }: { label: string; children: ReactNode; issues?: string[]; checked?: boolean; locate?: Locate }) {
  return (
    <div className={`detail-field${issues?.length ? ' detail-field-issue' : checked ? ' detail-field-checked' : ''}${locate?.active ? ' detail-field-active' : ''}`}>
      <dt>
        {locate ? (
          <button type="button" className="field-locate" aria-pressed={locate.active} aria-label={`Show ${label} on the receipt`} onClick={locate.onClick}>
            {label}
          </button>
        ) : (
          label
        )}
      </dt>
      <dd>
        {children}
        <IssueNotes issues={issues} role="note" />
        {!issues?.length && checked && (
          <span className="checked-note" role="note">
            ✓ Checked by you
          </span>
        )}
      </dd>
    </div>
  );
}
