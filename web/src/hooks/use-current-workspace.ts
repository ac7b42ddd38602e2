import { workspaceAllows, type WorkspaceAction, type WorkspaceList, type WorkspaceView } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { workspaceKeys } from '../lib/workspaces-api.js';
import { useProfile } from './use-account.js';

/** The workspace the signed-in account acts in, with its role there; null for a visitor, or when it could not be read. */
export function useCurrentWorkspace(): { workspace: WorkspaceView | null; loading: boolean } {
  const { signedIn, loading } = useProfile();
  const query = useQuery<WorkspaceList | null>({ queryKey: workspaceKeys.list, enabled: signedIn, meta: { silent: true } });
  const list = query.data;
  return { workspace: list?.workspaces.find((w) => w.id === list.currentId) ?? null, loading: loading || (signedIn && query.isPending) };
}

/** Whether the account's role in the workspace it acts in allows `action` (the one policy, workspaceAllows); false until known. */
export function useWorkspaceAllows(action: WorkspaceAction): boolean {
  const { workspace } = useCurrentWorkspace();
  return workspace !== null && workspaceAllows(workspace.role, action, { personal: workspace.personal });
}
