import { formatMoney, LOCKED_APPROVALS, mayApprovalMove, type LibraryReceipt } from '@receipts/common';
import { ApprovalBadge, ApprovalComment } from './approval-badge.js';
import { DataTable, type TableColumn } from './data-table.js';
import './library-table.css';

const isRereading = (r: LibraryReceipt) => r.uploadStatus === 'queued' || r.uploadStatus === 'processing';

interface LibraryProps {
  receipts: readonly LibraryReceipt[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
  onReextract: (id: string) => void;
  reextracting: boolean;
  onDelete: (receipt: LibraryReceipt) => void;
  /** A team member's: submits a draft, or a rejected receipt again once corrected. */
  onSubmit?: (id: string) => void;
  submitting?: boolean;
}

const totalOf = (r: LibraryReceipt) => (r.total != null ? formatMoney(r.total, r.currency ?? 'USD') : '—');

function StatusTags({ receipt: r }: { receipt: LibraryReceipt }) {
  return (
    <>
      {isRereading(r) ? (
        <span className="tag tag-info">Re-reading...</span>
      ) : r.valid ? (
        <span className="tag tag-ok">Ready</span>
      ) : (
        <span className="tag tag-warn">Needs review</span>
      )}
      {r.duplicateOf && <span className="tag tag-info">Duplicate?</span>}
      {r.edited && <span className="tag">Edited</span>}
      <ApprovalBadge status={r.approval.status} />
      {r.approval.status === 'rejected' && <ApprovalComment comment={r.approval.comment} by={r.approval.decidedBy} />}
    </>
  );
}

function RowActions({ receipt: r, onOpen, onReextract, reextracting, onDelete, onSubmit, submitting }: Omit<LibraryProps, 'receipts' | 'selected' | 'onToggle'> & { receipt: LibraryReceipt }) {
  // A submitter's receipt waiting for or past an approver's decision is not theirs to read again.
  const locked = Boolean(onSubmit) && LOCKED_APPROVALS.includes(r.approval.status);
  return (
    <>
      {onSubmit && mayApprovalMove('submit', r.approval.status) && (
        <button type="button" className="btn btn-primary btn-sm" disabled={submitting || isRereading(r)} onClick={() => onSubmit(r.id)}>
          {r.approval.status === 'rejected' ? 'Resubmit' : 'Submit'}
        </button>
      )}
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onOpen(r.id)}>
        Details
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={!r.originalAvailable || reextracting || locked}
        title={locked ? 'Submitted for approval: it changes only if an approver rejects it' : r.originalAvailable ? undefined : 'The original file is no longer stored'}
        onClick={() => onReextract(r.id)}
      >
        Re-extract
      </button>
      <button type="button" className="btn btn-ghost btn-sm text-red" onClick={() => onDelete(r)}>
        Delete
      </button>
    </>
  );
}

/**
 * The library's receipts, each with a checkbox for the export and its actions: a table on wide
 * screens, a card each on narrow ones (the CSS shows one of the two).
 */
export function LibraryTable(props: LibraryProps) {
  return (
    <>
      <LibraryRows {...props} />
      <LibraryCards {...props} />
    </>
  );
}

function LibraryCards({ receipts, selected, onToggle, ...actions }: LibraryProps) {
  return (
    <ul className="library-cards" aria-label="Receipts">
      {receipts.map((r) => (
        <li key={r.id} className="library-card" data-testid="library-card">
          <div className="library-card-head">
            <input type="checkbox" aria-label={`Select ${r.merchantName ?? r.filename}`} checked={selected.has(r.id)} onChange={() => onToggle(r.id)} />
            <div className="library-card-title">
              <strong>{r.merchantName ?? <span className="muted">Unknown merchant</span>}</strong>
              <span className="muted small">{r.filename}</span>
            </div>
            <span className="library-card-total" data-testid="card-total">
              {totalOf(r)}
            </span>
          </div>
          <div className="library-card-meta">
            <span>{r.date ?? 'No date'}</span>
            <span className="muted">{r.category}</span>
            <span data-testid="card-status">
              <StatusTags receipt={r} />
            </span>
          </div>
          <div className="library-card-actions">
            <RowActions receipt={r} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function LibraryRows({ receipts, selected, onToggle, ...actions }: LibraryProps) {
  const columns: ReadonlyArray<TableColumn<LibraryReceipt>> = [
    {
      header: 'Select',
      hideHeader: true,
      cell: (r) => <input type="checkbox" aria-label={`Select ${r.merchantName ?? r.filename}`} checked={selected.has(r.id)} onChange={() => onToggle(r.id)} />,
    },
    {
      header: 'Merchant',
      cell: (r) => (
        <>
          {r.merchantName ?? <span className="muted">Unknown merchant</span>}
          <br />
          <span className="muted small">{r.filename}</span>
        </>
      ),
    },
    { header: 'Date', cell: (r) => r.date ?? '—' },
    { header: 'Total', numeric: true, cell: totalOf },
    {
      header: 'Category',
      cell: (r) => (
        <>
          {r.category}
          {r.tags && r.tags.length > 0 && <span className="muted small"> · {r.tags.join(', ')}</span>}
        </>
      ),
    },
    { header: 'Status', cell: (r) => <StatusTags receipt={r} /> },
    {
      header: 'Actions',
      hideHeader: true,
      cellClassName: 'row-actions',
      cell: (r) => <RowActions receipt={r} {...actions} />,
    },
  ];
  return (
    <div className="table-scroll library-table-wrap">
      <DataTable className="library-table" columns={columns} rows={receipts} rowKey={(r) => r.id} />
    </div>
  );
}
