import { formatMoney, type ApprovalQueue, type ApprovalReceipt, type ReportDetail } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApprovalBadge, ApprovalComment, ReportBadge } from '../components/approval-badge.js';
import { DecisionControls } from '../components/decision-controls.js';
import { reportTotals } from '../components/my-reports.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { useCurrentWorkspace, useWorkspaceAllows } from '../hooks/use-current-workspace.js';
import { messageOf } from '../lib/api.js';
import { approvalQueueKey, decide, isApprovalQuery, reportExportUrl } from '../lib/approvals-api.js';
import { toast } from '../lib/toast.js';
import './approvals-page.css';

interface Decision {
  what: 'receipts' | 'reports';
  id: string;
  decision: 'approve' | 'reject';
  comment: string;
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');
const nameOf = (r: ApprovalReceipt) => r.merchantName ?? r.filename;

function ReceiptLine({ receipt: r, busy, onDecide }: { receipt: ApprovalReceipt; busy: boolean; onDecide?: (d: Decision) => void }) {
  return (
    <li className="approval-item" data-testid="approval-receipt">
      <div className="approval-item-head">
        <strong>{nameOf(r)}</strong>
        <span className="approval-total">{r.total != null ? formatMoney(r.total, r.currency ?? 'USD') : '—'}</span>
      </div>
      <p className="muted small">
        {r.date ?? 'No date'} · {r.category} · {r.filename}
        {r.submitter && ` · from ${r.submitter}`}
        {!r.valid && <span className="tag tag-warn">Needs review</span>}
        <ApprovalBadge status={r.approval.status} />
      </p>
      <ApprovalComment comment={r.approval.comment} by={r.approval.decidedBy} />
      {onDecide && r.approval.status === 'submitted' && (
        <DecisionControls subject={nameOf(r)} busy={busy} onDecide={(decision, comment) => onDecide({ what: 'receipts', id: r.id, decision, comment })} />
      )}
    </li>
  );
}

function ReportCard({ report, busy, onDecide }: { report: ReportDetail; busy: boolean; onDecide: (d: Decision) => void }) {
  return (
    <article className="card approval-report" aria-label={`Report ${report.name}`}>
      <div className="approval-item-head">
        <h3>
          {report.name}
          <ReportBadge status={report.status} />
        </h3>
        <span className="approval-total">{reportTotals(report)}</span>
      </div>
      <p className="muted small">
        {report.submitter ?? 'A former member'} · {report.from} to {report.to} · {report.receipts} receipt{report.receipts === 1 ? '' : 's'} · submitted {day(report.submittedAt)}
      </p>
      <div className="approval-downloads">
        <a className="btn btn-ghost btn-sm" href={reportExportUrl(report.id, 'pdf')} download>
          Download PDF
        </a>
        <a className="btn btn-ghost btn-sm" href={reportExportUrl(report.id, 'xlsx')} download>
          Download workbook
        </a>
      </div>
      <p className="approval-whole small">The whole report: every receipt of it still waiting</p>
      <DecisionControls subject={`the whole report ${report.name}`} busy={busy} onDecide={(decision, comment) => onDecide({ what: 'reports', id: report.id, decision, comment })} />
      <p className="approval-whole small">Or receipt by receipt</p>
      <ul className="approval-list">
        {report.items.map((r) => (
          <ReceiptLine key={r.id} receipt={r} busy={busy} onDecide={onDecide} />
        ))}
      </ul>
    </article>
  );
}

/**
 * The approval queue: others' receipts submitted one by one, and others' reports with their
 * receipts; each approved or rejected (a rejection says what to correct), a report as a whole or
 * receipt by receipt, and a report downloaded as a PDF or a workbook.
 */
export function ApprovalsPage() {
  usePageTitle('Approvals');
  const client = useQueryClient();
  const { workspace } = useCurrentWorkspace();
  const canApprove = useWorkspaceAllows('receipts:approve');
  const queue = useQuery<ApprovalQueue>({ queryKey: approvalQueueKey, enabled: canApprove });
  const decision = useMutation({
    mutationFn: (d: Decision) => decide(d.what, d.id, d.decision, d.comment || undefined),
    onSuccess: (_answer, d) => {
      toast({ title: d.decision === 'approve' ? 'Approved' : 'Rejected', description: d.decision === 'reject' ? 'The submitter is told what to correct.' : undefined });
      void client.invalidateQueries({ predicate: (q) => isApprovalQuery(q.queryKey) });
    },
    onError: (err) => toast({ title: 'Could not record the decision', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  if (!canApprove) {
    return (
      <div className="container approvals">
        <h1>Approvals</h1>
        <p className="muted">{workspace ? 'Approving receipts is for a team workspace’s owner, admins and accountants.' : 'Loading...'}</p>
      </div>
    );
  }
  const receipts = queue.data?.receipts ?? [];
  const reports = queue.data?.reports ?? [];
  const busy = decision.isPending;
  return (
    <div className="container approvals">
      <h1>Approvals</h1>
      {queue.isError ? (
        <p className="error-text" role="alert">
          {messageOf(queue.error, 'The approval queue could not be loaded.')}
        </p>
      ) : queue.isPending ? (
        <p className="muted">Loading...</p>
      ) : receipts.length === 0 && reports.length === 0 ? (
        <div className="card empty">
          <p>Nothing waits for your decision in {workspace?.name}.</p>
        </div>
      ) : (
        <>
          {reports.length > 0 && (
            <section aria-labelledby="approval-reports">
              <h2 id="approval-reports">Reports</h2>
              {reports.map((report) => (
                <ReportCard key={report.id} report={report} busy={busy} onDecide={(d) => decision.mutate(d)} />
              ))}
            </section>
          )}
          {receipts.length > 0 && (
            <section className="card" aria-labelledby="approval-receipts">
              <h2 id="approval-receipts">Receipts</h2>
              <ul className="approval-list">
                {receipts.map((r) => (
                  <ReceiptLine key={r.id} receipt={r} busy={busy} onDecide={(d) => decision.mutate(d)} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}

export default ApprovalsPage;
