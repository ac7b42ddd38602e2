import type { ApprovalQueue } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';
import { useWorkspaceAllows } from '../hooks/use-current-workspace.js';
import { approvalQueueKey } from '../lib/approvals-api.js';

/** "Approvals", for those who approve in the workspace they act in, with how many receipts and reports wait. */
export function ApprovalsLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  const canApprove = useWorkspaceAllows('receipts:approve');
  const queue = useQuery<ApprovalQueue>({ queryKey: approvalQueueKey, enabled: canApprove, meta: { silent: true } }).data;
  if (!canApprove) return null;
  const waiting = (queue?.receipts.length ?? 0) + (queue?.reports.length ?? 0);
  return (
    <NavLink to="/approvals" className={className} onClick={onClick} aria-label={waiting > 0 ? `Approvals, ${waiting} waiting` : 'Approvals'}>
      Approvals
      {waiting > 0 && (
        <span className="nav-count" aria-hidden="true">
          {waiting}
        </span>
      )}
    </NavLink>
  );
}
