import type { ReactNode } from 'react';

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

/** One line of the details: its label, its value and the issues about it. */
export function DetailField({ label, children, issues }: { label: string; children: ReactNode; issues?: string[] }) {
  return (
    <div className={`detail-field${issues?.length ? ' detail-field-issue' : ''}`}>
      <dt>{label}</dt>
      <dd>
        {children}
        <IssueNotes issues={issues} role="note" />
      </dd>
    </div>
  );
}
