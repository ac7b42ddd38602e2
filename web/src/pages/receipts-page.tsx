import { ENGINE_LABELS, type ClientConfig, type EngineName, type ReceiptList } from '@receipts/common';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ExportControls, runExport } from '../components/export-controls.js';
import { LibraryFilters, type LibraryFilter } from '../components/library-filters.js';
import { LibraryTable } from '../components/library-table.js';
import { MyReports } from '../components/my-reports.js';
import { ReportForm } from '../components/report-form.js';
import { Pager } from '../components/pager.js';
import { ReceiptDetailsModal } from '../components/receipt-details-modal.js';
import { SpendingPanel } from '../components/spending-panel.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { useCurrentWorkspace, useWorkspaceAllows } from '../hooks/use-current-workspace.js';
import { messageOf } from '../lib/api.js';
import { isApprovalQuery, submitReceipt } from '../lib/approvals-api.js';
import { configKey } from '../lib/config-api.js';
import { deleteReceipt, isReceiptsQuery, libraryUrl, reextractReceipt, type LibraryQuery } from '../lib/receipts-api.js';
import { toast } from '../lib/toast.js';
import './receipts-page.css';

const PAGE_SIZE = 25;

export function ReceiptsPage() {
  usePageTitle('My Receipts');
  const client = useQueryClient();
  const [query, setQuery] = useState<LibraryQuery>({ page: 1, pageSize: PAGE_SIZE });
  const [openId, setOpenId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The engines this server runs, its default first; a choice is offered only when there is one.
  const engines = useQuery<ClientConfig | null>({ queryKey: configKey, meta: { silent: true } }).data?.engines ?? [];
  const [engine, setEngine] = useState<EngineName | null>(null);
  const list = useQuery<ReceiptList>({
    queryKey: [libraryUrl(query)],
    placeholderData: keepPreviousData,
    // While a receipt is being read again, look for the new result every few seconds.
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.uploadStatus === 'queued' || r.uploadStatus === 'processing') ? 3000 : false),
  });
  const refresh = () => client.invalidateQueries({ predicate: (q) => isReceiptsQuery(q.queryKey) });
  // A team's member submits receipts for approval; a team's receipts can be filtered by it.
  const { workspace } = useCurrentWorkspace();
  const canSubmit = useWorkspaceAllows('receipts:submit');
  const submit = useMutation({
    mutationFn: submitReceipt,
    onSuccess: () => {
      toast({ title: 'Submitted for approval' });
      void client.invalidateQueries({ predicate: (q) => isApprovalQuery(q.queryKey) });
    },
    onError: (err) => toast({ title: 'Could not submit', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteReceipt(id),
    onSuccess: () => {
      toast({ title: 'Receipt deleted' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not delete', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const reextract = useMutation({
    mutationFn: (id: string) => reextractReceipt(id, engine ?? undefined),
    onSuccess: () => {
      toast({ title: 'Reading the receipt again', description: 'The new result replaces this one when it is ready.' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not re-extract', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  const applyFilters = (filter: LibraryFilter) => {
    setQuery({ ...filter, page: 1, pageSize: PAGE_SIZE });
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
      <LibraryFilters query={query} currencies={list.data?.currencies ?? []} approvals={workspace?.personal === false} onApply={applyFilters} />

      <div className="library-bar">
        <p className="muted" aria-live="polite">
          {list.isPending ? 'Loading...' : `${total} receipt${total === 1 ? '' : 's'}`}
          {selected.size > 0 && ` · ${selected.size} selected`}
        </p>
        {engines.length > 1 && (
          <label className="engine-choice">
            Re-extract with{' '}
            <select value={engine ?? ''} onChange={(e) => setEngine((e.target.value || null) as EngineName | null)}>
              {engines.map((name, i) => (
                <option key={name} value={i === 0 ? '' : name}>
                  {ENGINE_LABELS[name]}
                  {i === 0 ? ' (default)' : ''}
                </option>
              ))}
            </select>
          </label>
        )}
        <ExportControls
          ids={selected.size > 0 ? [...selected] : undefined}
          filter={{ q: query.q, from: query.from, to: query.to, category: query.category, tag: query.tag, currency: query.currency }}
          label={selected.size > 0 ? 'Export selected' : query.q || query.from || query.to || query.category || query.tag || query.currency ? 'Export matching' : 'Export all'}
        />
      </div>

      {canSubmit && <ReportForm selected={[...selected]} onDone={() => setSelected(new Set())} />}

      {list.isError ? (
        <p className="error-text" role="alert">
          {messageOf(list.error, 'Your receipts could not be loaded.')}
        </p>
      ) : items.length === 0 && !list.isPending ? (
        <div className="card empty">
          <p>No receipts match. Upload some on the home page.</p>
        </div>
      ) : (
        <LibraryTable
          receipts={items}
          selected={selected}
          onToggle={toggle}
          onOpen={setOpenId}
          onReextract={(id) => reextract.mutate(id)}
          reextracting={reextract.isPending}
          onDelete={(r) => {
            if (window.confirm(`Delete the receipt from ${r.merchantName ?? r.filename}?`)) remove.mutate(r.id);
          }}
          onSubmit={canSubmit ? (id) => submit.mutate(id) : undefined}
          submitting={submit.isPending}
        />
      )}

      {canSubmit && <MyReports />}

      <Pager page={query.page} pages={pages} onPage={(page) => setQuery((q) => ({ ...q, page }))} />

      {/* Below the list: the charts arrive last and are the tallest, so they move nothing above them. */}
      <SpendingPanel filter={{ q: query.q, from: query.from, to: query.to, category: query.category, tag: query.tag, currency: query.currency, valid: query.valid }} />

      {open && (
        <ReceiptDetailsModal
          receipt={open}
          filename={open.filename}
          open
          onOpenChange={(o) => !o && setOpenId(null)}
          onExport={() => void runExport({ format: 'xlsx', preset: 'generic', ids: [open.id] })}
          onSaved={() => void refresh()}
        />
      )}
    </div>
  );
}
