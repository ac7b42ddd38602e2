import { formatMoney, type ReportList, type ReportView } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { myReportsKey } from '../lib/approvals-api.js';
import { ApprovalComment, ReportBadge } from './approval-badge.js';
import './my-reports.css';

/** Each currency's total of a report, never added across currencies. */
export const reportTotals = (report: Pick<ReportView, 'totals'>) => report.totals.map((t) => formatMoney(t.total, t.currency)).join(' + ') || '—';

/** A member's expense reports and where each stands. */
export function MyReports() {
  const reports = useQuery<ReportList>({ queryKey: myReportsKey, meta: { silent: true } }).data?.reports ?? [];
  if (reports.length === 0) return null;
  return (
    <section className="card my-reports" aria-labelledby="my-reports-title">
      <h2 id="my-reports-title">Your reports</h2>
      <ul>
        {reports.map((r) => (
          <li key={r.id}>
            <div className="my-report-head">
              <strong>{r.name}</strong>
              <ReportBadge status={r.status} />
            </div>
            <span className="muted small">
              {r.from} to {r.to} · {r.receipts} receipt{r.receipts === 1 ? '' : 's'} · {reportTotals(r)}
            </span>
            <ApprovalComment comment={r.comment} by={r.decidedBy} />
          </li>
        ))}
      </ul>
    </section>
  );
}
