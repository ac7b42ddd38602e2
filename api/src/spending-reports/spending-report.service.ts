import { actingWorkspace, spendingReport, type SpendingReport, type SpendingReportQuery } from '@receipts/common';
import type { ReceiptRepository, WorkspaceRepository } from '@receipts/infra';
import { unauthenticated } from '../owner.middleware.js';
import type { Owner } from '../session.js';

/**
 * A workspace's spending report: what its receipts add up to per currency, by month, category,
 * merchant and member, over a period. Those who may read reports see every receipt of the
 * workspace (workspace-policy.rule.ts), so the owner's scope is the whole workspace.
 */
export class SpendingReportService {
  constructor(
    private readonly receipts: Pick<ReceiptRepository, 'spending'>,
    private readonly workspaces: Pick<WorkspaceRepository, 'members'>,
  ) {}

  async report(owner: Owner, query: SpendingReportQuery): Promise<SpendingReport> {
    const workspace = actingWorkspace(owner);
    if (!workspace) throw unauthenticated();
    const { member, ...filter } = query;
    const [rows, members] = await Promise.all([this.receipts.spending(owner, filter, { byMember: true, member }), this.workspaces.members(workspace.id)]);
    return { ...spendingReport(rows), roster: members.map(({ userId, email, username, role }) => ({ userId, email, username, role })) };
  }
}
