import { formatMoney, type LibraryReceipt } from '@receipts/common';
import { DataTable, type TableColumn } from './data-table.js';

const isRereading = (r: LibraryReceipt) => r.uploadStatus === 'queued' || r.uploadStatus === 'processing';

/** The library's receipts, each with a checkbox for the export and its actions. */
export function LibraryTable({
  receipts,
  selected,
  onToggle,
  onOpen,
  onReextract,
  reextracting,
  onDelete,
}: {
  receipts: readonly LibraryReceipt[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
  onReextract: (id: string) => void;
  reextracting: boolean;
  onDelete: (receipt: LibraryReceipt) => void;
}) {
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
    { header: 'Total', numeric: true, cell: (r) => (r.total != null ? formatMoney(r.total, r.currency ?? 'USD') : '—') },
    { header: 'Category', cell: (r) => r.category },
    {
      header: 'Status',
      cell: (r) => (
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
        </>
      ),
    },
    {
      header: 'Actions',
      hideHeader: true,
      cellClassName: 'row-actions',
      cell: (r) => (
        <>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => onOpen(r.id)}>
            Details
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={!r.originalAvailable || reextracting}
            title={r.originalAvailable ? undefined : 'The original file is no longer stored'}
            onClick={() => onReextract(r.id)}
          >
            Re-extract
          </button>
          <button type="button" className="btn btn-ghost btn-sm text-red" onClick={() => onDelete(r)}>
            Delete
          </button>
        </>
      ),
    },
  ];
  return (
    <div className="table-scroll">
      <DataTable className="library-table" columns={columns} rows={receipts} rowKey={(r) => r.id} />
    </div>
  );
}
