import type { AssignableRole, InvitationView, InviteMemberInput, MemberList, MemberView, MessageAnswer, WorkspaceList, WorkspaceView } from '@receipts/common';
import { apiJson, apiPost } from './api.js';

/** Reads of workspaces, their members and invitations; each key is the url the shared query function reads (spec §7). */
export const workspaceKeys = {
  /** `WorkspaceList`: the account's workspaces and the one requests act in. */
  list: ['/api/workspaces'] as const,
  /** `MemberList`: the members of the workspace requests act in. */
  members: ['/api/workspaces/current/members'] as const,
  /** `InvitationList`: its open invitations. */
  invitations: ['/api/workspaces/current/invitations'] as const,
  /** `InvitationPreview`: what a mailed link invites to. */
  invitation: (token: string) => ['/api/invitations', token] as const,
};

/** The workspace requests act in from now on (the session keeps it). */
export const switchWorkspace = (workspaceId: string) => apiJson<WorkspaceList>('/api/workspaces/current', { method: 'PUT', json: { workspaceId } });
export const createWorkspace = (name: string) => apiPost<WorkspaceView>('/api/workspaces', { name });
export const deleteWorkspace = () => apiJson<MessageAnswer>('/api/workspaces/current', { method: 'DELETE' });

export const changeMemberRole = (userId: string, role: AssignableRole) => apiJson<MemberView>(`/api/workspaces/current/members/${userId}`, { method: 'PATCH', json: { role } });
export const removeMember = (userId: string) => apiJson<null>(`/api/workspaces/current/members/${userId}`, { method: 'DELETE' });
export const leaveWorkspace = () => apiPost<WorkspaceList>('/api/workspaces/current/leave');
export const transferOwnership = (userId: string) => apiPost<MemberList>('/api/workspaces/current/ownership', { userId });

export const inviteMember = (input: InviteMemberInput) => apiPost<InvitationView>('/api/workspaces/current/invitations', input);
export const revokeInvitation = (id: string) => apiJson<null>(`/api/workspaces/current/invitations/${id}`, { method: 'DELETE' });
export const resendInvitation = (id: string) => apiPost<InvitationView>(`/api/workspaces/current/invitations/${id}/resend`);
export const acceptInvitation = (token: string) => apiPost<WorkspaceList>(`/api/invitations/${encodeURIComponent(token)}/accept`);

/**
 * After switching, joining, leaving or deleting a workspace every read the app holds is another
 * workspace's: the whole app loads again, at `path`.
 */
export function reloadAt(path: string): void {
  window.location.assign(path);
}
