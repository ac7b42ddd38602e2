import { actingWorkspace, workspaceAllows, type WorkspaceUsage } from '@receipts/common';
import type { QuotaService } from '@receipts/infra';
import { unauthenticated } from '../owner.middleware.js';
import type { Owner } from '../session.js';

/**
 * The dashboard's quota of the workspace a request acts in, and who used what of it this period:
 * everyone's for those who may read the workspace's reports, else one's own.
 */
export class WorkspaceUsageService {
  constructor(private readonly quota: Pick<QuotaService, 'policy' | 'view' | 'useByMember'>) {}

  async usage(owner: Owner): Promise<WorkspaceUsage> {
    const workspace = actingWorkspace(owner);
    if (!workspace || !owner.userId) throw unauthenticated();
    const policy = await this.quota.policy(owner);
    const [quota, use] = await Promise.all([this.quota.view(owner), this.quota.useByMember(workspace.id, policy.period.key)]);
    const everyone = workspaceAllows(workspace.role, 'reports:read', workspace);
    const members = everyone ? use : use.filter((m) => m.userId === owner.userId);
    return { quota, shared: policy.subscriptionActive, everyone, members };
  }
}
