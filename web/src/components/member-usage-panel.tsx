import { memberLabel, type MemberUse, type WorkspaceUsage } from '@receipts/common';
import { DataTable, type TableColumn } from './data-table.js';
import './member-usage-panel.css';

const roleText = (role: MemberUse['role']) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'Left');

/**
 * The dashboard's use per member of a team workspace this period: every member's receipts (and
 * their share of the plan's count) for those who may read reports, one's own for a member.
 */
export function MemberUsagePanel({ usage }: { usage: WorkspaceUsage }) {
  const period = usage.shared ? 'this billing period' : 'today';
  const columns: Array<TableColumn<MemberUse>> = [
    {
      header: 'Member',
      rowHeader: true,
      cell: (m) =>
        m.email ? (
          <>
            {m.username ?? m.email}
            {/* A member sees only their own row: their role is no news to them. */}
            <span className="member-usage-detail">{usage.everyone ? `${roleText(m.role)} · ${m.email}` : m.email}</span>
          </>
        ) : (
          memberLabel(m)
        ),
    },
    { header: 'Receipts', numeric: true, cell: (m) => m.units },
  ];
  // Shares of one count only mean something when the members share one.
  if (usage.shared) {
    columns.push({ header: 'Share', numeric: true, cell: (m) => `${usage.quota.limit > 0 ? Math.round((m.units / usage.quota.limit) * 100) : 0}%` });
  }
  return (
    <section className="card member-usage" aria-labelledby="member-usage-title">
      <h2 id="member-usage-title">{usage.everyone ? 'Use per member' : 'Your use'}</h2>
      <p className="muted small" data-testid="member-usage-note">
        {usage.shared
          ? `The workspace's plan: every member's receipts count toward its ${usage.quota.limit.toLocaleString('en-US')} a month. Receipts ${period}:`
          : `No plan in this workspace: each person has their own free allowance. Receipts uploaded here ${period}:`}
      </p>
      {usage.members.length === 0 ? (
        <p className="muted">No receipts {period} yet.</p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={usage.members} rowKey={(m, i) => m.userId ?? `gone-${i}`} className="member-usage-table" />
        </div>
      )}
    </section>
  );
}
