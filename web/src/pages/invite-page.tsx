import { MEMBERSHIP_MESSAGES, WORKSPACE_ROLE_LABELS, type InvitationPreview } from '@receipts/common';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useLogout, useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { acceptInvitation, reloadAt, workspaceKeys } from '../lib/workspaces-api.js';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="container auth-page">
      <div className="card auth-card" role="status">
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** What to do with an invitation, as the visitor is: sign in or register, switch accounts, confirm the address, or accept. */
function Next({ invitation, token }: { invitation: InvitationPreview; token: string }) {
  const { profile } = useProfile();
  const { logout, pending } = useLogout();
  const accept = useMutation({ mutationFn: () => acceptInvitation(token), onSuccess: () => reloadAt('/dashboard') });
  const here = `/invite/${token}`;
  if (!profile) {
    return (
      <>
        <p>{MEMBERSHIP_MESSAGES.signInToAccept(invitation.email)}</p>
        <div className="button-row">
          <Link to={`/login?redirect=${encodeURIComponent(here)}`} className="btn btn-primary">
            Sign in
          </Link>
          <Link to={`/register?redirect=${encodeURIComponent(here)}`} className="btn btn-outline">
            Register
          </Link>
        </div>
      </>
    );
  }
  if (profile.email !== invitation.email) {
    return (
      <>
        <p>{MEMBERSHIP_MESSAGES.wrongAddress(invitation.email)}</p>
        <p className="muted">You are signed in as {profile.email}.</p>
        <button type="button" className="btn btn-outline" disabled={pending} onClick={() => void logout()}>
          Sign out
        </button>
      </>
    );
  }
  if (!profile.emailVerified) return <p>{MEMBERSHIP_MESSAGES.confirmFirst(invitation.email)}</p>;
  return (
    <>
      {accept.isError && (
        <p className="error-text" role="alert">
          {messageOf(accept.error, 'The invitation could not be accepted.')}
        </p>
      )}
      <button type="button" className="btn btn-primary" disabled={accept.isPending} onClick={() => accept.mutate()}>
        {accept.isPending ? 'Joining...' : `Join ${invitation.workspace}`}
      </button>
    </>
  );
}

/**
 * /invite/:token, the link of an invitation mail: what it invites to, and how to accept it. Only
 * the invited address, signed in and confirmed, can; the api says the same when asked.
 */
export function InvitePage() {
  usePageTitle('Invitation');
  const { token = '' } = useParams();
  const preview = useQuery<InvitationPreview>({ queryKey: workspaceKeys.invitation(token), meta: { silent: true } });
  if (preview.isPending) return <Card title="Opening the invitation...">{null}</Card>;
  if (preview.isError) {
    return (
      <Card title="Invalid Invitation Link">
        <p>{messageOf(preview.error, MEMBERSHIP_MESSAGES.linkInvalid)}</p>
      </Card>
    );
  }
  const invitation = preview.data;
  return (
    <Card title={`Join ${invitation.workspace}`}>
      <p>
        {invitation.invitedBy ? `${invitation.invitedBy.name} (${invitation.invitedBy.email})` : 'Someone'} invited {invitation.email} to the workspace <strong>{invitation.workspace}</strong> as{' '}
        {WORKSPACE_ROLE_LABELS[invitation.role]}.
      </p>
      <Next invitation={invitation} token={token} />
    </Card>
  );
}
