import { formatMoney, memberLabel, type SpendingReport } from '@receipts/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { CurrencyCharts, MemberSpendingChart } from '../components/spending-charts.js';
import { useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { periodRange, REPORT_PERIODS, type ReportPeriodId } from '../lib/report-periods.js';
import { REPORTS_PAGE_PATH, spendingReportUrl } from '../lib/workspace-plan-api.js';
import './reports-page.css';

const receiptsText = (n: number) => `${n} receipt${n === 1 ? '' : 's'}`;

/**
 * The workspace's spending reports (owners, admins, accountants): over a period, for everyone or
 * one member, per member, month, category and merchant, each chart with its table. One currency
 * at a time, the one with most receipts first: money is never added across currencies.
 */
export default function ReportsPage() {
  usePageTitle('Spending reports');
  const { profile, loading } = useProfile();
  const [period, setPeriod] = useState<ReportPeriodId>('this-year');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const [member, setMember] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [showTable, setShowTable] = useState(true);
  const range = period === 'custom' ? custom : periodRange(period);
  const read = useQuery<SpendingReport>({
    queryKey: [spendingReportUrl({ ...range, member })],
    enabled: Boolean(profile),
    placeholderData: keepPreviousData,
    // Said in place: a role that may not read reports hears why on the page.
    meta: { silent: true },
  });

  if (loading) return <div className="container page-loading">Loading reports...</div>;
  if (!profile) return <Navigate to={`/login?redirect=${encodeURIComponent(REPORTS_PAGE_PATH)}`} replace />;
  const report = read.data;
  const currencies = report?.currencies ?? [];
  const current = currencies.find((c) => c.currency === picked) ?? currencies[0];

  return (
    <div className="container reports">
      <h1>Spending reports</h1>
      <p className="muted">What the workspace’s receipts add up to: per member, month, category and merchant.</p>

      <form className="card report-filters" role="search" aria-label="Report filters" onSubmit={(e) => e.preventDefault()}>
        <div className="form-field">
          <label htmlFor="report-period">Period</label>
          <select id="report-period" value={period} onChange={(e) => setPeriod(e.target.value as ReportPeriodId)}>
            {REPORT_PERIODS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        {period === 'custom' && (
          <>
            <div className="form-field">
              <label htmlFor="report-from">From</label>
              <input id="report-from" type="date" value={custom.from} onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))} />
            </div>
            <div className="form-field">
              <label htmlFor="report-to">To</label>
              <input id="report-to" type="date" value={custom.to} onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))} />
            </div>
          </>
        )}
        <div className="form-field">
          <label htmlFor="report-member">Member</label>
          <select id="report-member" value={member} onChange={(e) => setMember(e.target.value)}>
            <option value="">Everyone</option>
            {report?.roster.map((m) => (
              <option key={m.userId} value={m.userId}>
                {memberLabel(m)}
              </option>
            ))}
          </select>
        </div>
      </form>

      <section className="card" aria-labelledby="report-title" aria-busy={read.isFetching}>
        <div className="card-head">
          <h2 id="report-title">Spending</h2>
          {current && (
            <button type="button" className="btn btn-sm btn-ghost" aria-pressed={showTable} onClick={() => setShowTable((s) => !s)}>
              {showTable ? 'Hide tables' : 'Show tables'}
            </button>
          )}
        </div>
        {read.isError ? (
          <p className="error-text" role="alert">
            {messageOf(read.error, 'The report could not be loaded.')}
          </p>
        ) : !report ? (
          <p className="muted">Loading...</p>
        ) : !current ? (
          <p className="muted" data-testid="report-empty">
            No spending in this period: receipts with a total appear here once they are read.
          </p>
        ) : (
          <>
            {currencies.length > 1 && (
              <div className="report-currencies" role="group" aria-label="Currency">
                {currencies.map((c) => (
                  <button key={c.currency} type="button" className={`btn btn-sm ${c === current ? 'btn-primary' : 'btn-outline'}`} aria-pressed={c === current} onClick={() => setPicked(c.currency)}>
                    {c.currency} {formatMoney(c.total, c.currency)}
                  </button>
                ))}
              </div>
            )}
            <p className="muted small" data-testid="report-total">
              {formatMoney(current.total, current.currency)} across {receiptsText(current.receipts)} in {current.currency}
              {currencies.length > 1 && ' (currencies are never added together)'}.
            </p>
            <div className="spending-grid">
              <MemberSpendingChart spending={current} roster={report.roster} showTable={showTable} />
            </div>
            <CurrencyCharts spending={current} all={currencies} showTable={showTable} />
          </>
        )}
        {report && report.notCounted > 0 && <p className="muted small">{receiptsText(report.notCounted)} not counted: no total read, or marked as a possible duplicate.</p>}
      </section>
    </div>
  );
}
