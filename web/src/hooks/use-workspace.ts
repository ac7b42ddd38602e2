import { workspaceAllows, type WorkspaceList } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { workspacesKey } from '../lib/approvals-api.js';
import { useProfile } from './use-account.js';

/**
 * The workspace a signed-in person acts in, and what the policy lets them do there about
 * approvals: submit (a team's member) or approve (its owner, admins and accountants).
 */
export function useCurrentWorkspace() {
  const { signedIn } = useProfile();
  const list = useQuery<WorkspaceList>({ queryKey: workspacesKey, enabled: signedIn, meta: { silent: true } }).data;
  const workspace = list?.workspaces.find((w) => w.id === list.currentId) ?? null;
  const may = (action: 'receipts:submit' | 'receipts:approve') => (workspace ? workspaceAllows(workspace.role, action, workspace) : false);
  return { workspace, canSubmit: may('receipts:submit'), canApprove: may('receipts:approve') };
}
