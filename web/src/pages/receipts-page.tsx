import { CATEGORIES, formatMoney, type LibraryReceipt, type ReceiptList } from '@receipts/common';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ExportControls, runExport } from '../components/export-controls.js';
import { ReceiptDetailsModal } from '../components/receipt-details-modal.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { deleteReceipt, libraryUrl, listReceipts, reextractReceipt, type LibraryQuery } from '../lib/receipts-api.js';
import { toast } from '../lib/toast.js';

const PAGE_SIZE = 25;

export function ReceiptsPage() {
  usePageTitle('My Receipts');
  const client = useQueryClient();
  const [query, setQuery] = useState<LibraryQuery>({ page: 1, pageSize: PAGE_SIZE });
  const [openId, setOpenId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const list = useQuery<ReceiptList>({
    queryKey: [libraryUrl(query)],
    queryFn: () => listReceipts(query),
    placeholderData: keepPreviousData,
    // While a receipt is being read again, look for the new result every few seconds.
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.uploadStatus === 'queued' || r.uploadStatus === 'processing') ? 3000 : false),
  });
  const refresh = () => client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/receipts') });

  const remove = useMutation({
    mutationFn: (id: string) => deleteReceipt(id),
    onSuccess: () => {
      toast({ title: 'Receipt deleted' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not delete', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const reextract = useMutation({
    mutationFn: (id: string) => reextractReceipt(id),
    onSuccess: () => {
      toast({ title: 'Reading the receipt again', description: 'The new result replaces this one when it is ready.' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not re-extract', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  const applyFilters = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim() || undefined;
    setQuery({ q: text('q'), from: text('from'), to: text('to'), category: text('category'), valid: text('valid') as LibraryQuery['valid'], page: 1, pageSize: PAGE_SIZE });
    setSelected(new Set());
  };

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const open = items.find((r) => r.id === openId);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="container library">
      <h1>My Receipts</h1>
      <form className="card filters" onSubmit={applyFilters} role="search" aria-label="Filter receipts">
        <div className="form-field">
          <label htmlFor="lib-q">Search</label>
          <input id="lib-q" name="q" type="search" placeholder="Merchant or text" defaultValue={query.q} />
        </div>
        <div className="form-field">
          <label htmlFor="lib-from">From</label>
          <input id="lib-from" name="from" type="date" defaultValue={query.from} />
        </div>
        <div className="form-field">
          <label htmlFor="lib-to">To</label>
          <input id="lib-to" name="to" type="date" defaultValue={query.to} />
        </div>
        <div className="form-field">
          <label htmlFor="lib-category">Category</label>
          <select id="lib-category" name="category" defaultValue={query.category ?? ''}>
            <option value="">All</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="lib-valid">Validity</label>
          <select id="lib-valid" name="valid" defaultValue={query.valid ?? ''}>
            <option value="">All</option>
            <option value="true">Ready for export</option>
            <option value="false">Needs review</option>
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
      </form>

      <div className="library-bar">
        <p className="muted" aria-live="polite">
          {list.isPending ? 'Loading...' : `${total} receipt${total === 1 ? '' : 's'}`}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </p>
        <ExportControls ids={selected.size > 0 ? [...selected] : undefined} label={selected.size > 0 ? 'Export selected' : 'Export all'} />
      </div>

      {list.isError ? (
        <p className="error-text" role="alert">
          {messageOf(list.error, 'Your receipts could not be loaded.')}
        </p>
      ) : items.length === 0 && !list.isPending ? (
        <div className="card empty">
          <p>No receipts match. Upload some on the home page.</p>
        </div>
      ) : (
        <div className="table-scroll">
          <table className="table library-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Select</span>
                </th>
                <th scope="col">Merchant</th>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">Category</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r: LibraryReceipt) => (
                <tr key={r.id}>
                  <td>
                    <input type="checkbox" aria-label={`Select ${r.merchantName ?? r.filename}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
                  </td>
                  <td>
                    {r.merchantName ?? <span className="muted">Unknown merchant</span>}
                    <br />
                    <span className="muted small">{r.filename}</span>
                  </td>
                  <td>{r.date ?? '—'}</td>
                  <td className="num">{r.total != null ? formatMoney(r.total, r.currency ?? 'USD') : '—'}</td>
                  <td>{r.category}</td>
                  <td>
                    {r.uploadStatus === 'queued' || r.uploadStatus === 'processing' ? (
                      <span className="tag tag-info">Re-reading...</span>
                    ) : r.valid ? (
                      <span className="tag tag-ok">Ready</span>
                    ) : (
                      <span className="tag tag-warn">Needs review</span>
                    )}
                    {r.duplicateOf && <span className="tag tag-info">Duplicate?</span>}
                    {r.edited && <span className="tag">Edited</span>}
                  </td>
                  <td className="row-actions">
                    <button type="button" className="btn btn-outline btn-sm" onClick={() => setOpenId(r.id)}>
                      Details
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={!r.originalAvailable || reextract.isPending}
                      title={r.originalAvailable ? undefined : 'The original file is no longer stored'}
                      onClick={() => reextract.mutate(r.id)}
                    >
                      Re-extract
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-red"
                      onClick={() => {
                        if (window.confirm(`Delete the receipt from ${r.merchantName ?? r.filename}?`)) remove.mutate(r.id);
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn btn-outline btn-sm" disabled={query.page <= 1} onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}>
            Previous
          </button>
          <span>
            Page {query.page} of {pages}
          </span>
          <button type="button" className="btn btn-outline btn-sm" disabled={query.page >= pages} onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}>
            Next
          </button>
        </nav>
      )}

      {open && (
        <ReceiptDetailsModal
          receipt={open}
          filename={open.filename}
          open
          onOpenChange={(o) => !o && setOpenId(null)}
          onExport={() => void runExport({ format: 'xlsx', preset: 'generic', ids: [open.id] })}
          onSaved={() => {
            toast({ title: 'Receipt updated' });
            void refresh();
          }}
        />
      )}
    </div>
  );
}
