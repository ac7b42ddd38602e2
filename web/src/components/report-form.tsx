import { REPORT_NAME_MAX } from '@receipts/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { messageOf } from '../lib/api.js';
import { createReport, isApprovalQuery } from '../lib/approvals-api.js';
import { toast } from '../lib/toast.js';
import './report-form.css';

/** The first and last day of the month before `now`: the period most reports cover. */
function lastMonth(now = new Date()): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/**
 * "Submit a report": a name and a period. With receipts selected in the list, the report holds
 * those (drafts, or rejected ones corrected since); without, every draft of the period.
 */
export function ReportForm({ selected, onDone }: { selected: readonly string[]; onDone: () => void }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const period = lastMonth();
  const submit = useMutation({
    mutationFn: createReport,
    onSuccess: (report) => {
      toast({ title: 'Report submitted', description: `${report.name}: ${report.receipts} receipt${report.receipts === 1 ? '' : 's'} sent for approval.` });
      setOpen(false);
      onDone();
      void client.invalidateQueries({ predicate: (q) => isApprovalQuery(q.queryKey) });
    },
    onError: (err) => toast({ title: 'Could not submit the report', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const send = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    submit.mutate({ name: text('name'), from: text('from'), to: text('to'), ...(selected.length > 0 ? { receiptIds: [...selected] } : {}) });
  };
  if (!open) {
    return (
      <div className="report-form-open">
        <button type="button" className="btn btn-outline" onClick={() => setOpen(true)}>
          Submit a report
        </button>
      </div>
    );
  }
  return (
    <form className="card report-form" onSubmit={send} aria-label="Submit a report">
      <div className="form-field">
        <label htmlFor="report-name">Report name</label>
        <input id="report-name" name="name" required maxLength={REPORT_NAME_MAX} placeholder="Travel, March" />
      </div>
      <div className="form-field">
        <label htmlFor="report-from">From</label>
        <input id="report-from" name="from" type="date" required defaultValue={period.from} />
      </div>
      <div className="form-field">
        <label htmlFor="report-to">To</label>
        <input id="report-to" name="to" type="date" required defaultValue={period.to} />
      </div>
      <p className="muted small report-form-scope">
        {selected.length > 0 ? `The ${selected.length} selected receipt${selected.length === 1 ? '' : 's'}.` : 'Every draft receipt dated in the period.'}
      </p>
      <div className="report-form-actions">
        <button type="submit" className="btn btn-primary" disabled={submit.isPending}>
          {submit.isPending ? 'Submitting...' : 'Submit for approval'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
