import {
  ASSIGNABLE_ROLES,
  inviteMemberSchema,
  MEMBERSHIP_MESSAGES,
  WORKSPACE_ROLE_LABELS,
  WORKSPACE_ROLE_NAMES,
  workspaceAllows,
  type AssignableRole,
  type InvitationList,
  type InvitationView,
  type MemberList,
  type MemberView,
  type WorkspaceView,
} from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { DataTable, type TableColumn } from '../components/data-table.js';
import { useProfile } from '../hooks/use-account.js';
import { useCurrentWorkspace } from '../hooks/use-current-workspace.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { toast } from '../lib/toast.js';
import {
  changeMemberRole,
  deleteWorkspace,
  inviteMember,
  leaveWorkspace,
  reloadAt,
  removeMember,
  resendInvitation,
  revokeInvitation,
  transferOwnership,
  workspaceKeys,
} from '../lib/workspaces-api.js';
import './members-page.css';

const dateText = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const failed = (title: string) => (err: Error) => toast({ title, description: messageOf(err, 'Please try again.'), variant: 'destructive' });

/** The members of the workspace, with what the viewer's role lets them do to each (workspaceAllows decides, as the api does). */
function MembersSection({ workspace, me }: { workspace: WorkspaceView; me: string }) {
  const client = useQueryClient();
  const members = useQuery<MemberList>({ queryKey: workspaceKeys.members });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: workspaceKeys.members }), client.invalidateQueries({ queryKey: workspaceKeys.list })]);
  const role = useMutation({ mutationFn: ({ userId, to }: { userId: string; to: AssignableRole }) => changeMemberRole(userId, to), onSuccess: refresh, onError: failed('Could not change the role') });
  const remove = useMutation({ mutationFn: removeMember, onSuccess: refresh, onError: failed('Could not remove the member') });
  const transfer = useMutation({ mutationFn: transferOwnership, onSuccess: refresh, onError: failed('Could not hand the workspace over') });
  const scope = { personal: workspace.personal };
  const manages = (m: MemberView) => workspaceAllows(workspace.role, 'members:manage', { ...scope, targetRole: m.role });
  const busy = role.isPending || remove.isPending || transfer.isPending;

  const columns: ReadonlyArray<TableColumn<MemberView>> = [
    { header: 'Member', rowHeader: true, cell: (m) => <MemberName member={m} me={me} /> },
    {
      header: 'Role',
      cell: (m) =>
        m.role !== 'owner' && manages(m) ? (
          <select aria-label={`Role of ${m.email}`} value={m.role} disabled={busy} onChange={(e) => role.mutate({ userId: m.userId, to: e.target.value as AssignableRole })}>
            {ASSIGNABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {WORKSPACE_ROLE_NAMES[r]}
              </option>
            ))}
          </select>
        ) : (
          WORKSPACE_ROLE_NAMES[m.role]
        ),
    },
    { header: 'Joined', cell: (m) => dateText(m.joinedAt) },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (m) => (
        <div className="button-row member-actions">
          {m.role !== 'owner' && workspaceAllows(workspace.role, 'ownership:transfer', scope) && (
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => window.confirm(MEMBERSHIP_MESSAGES.confirmTransfer(m.email)) && transfer.mutate(m.userId)}>
              Make owner
            </button>
          )}
          {m.email !== me && manages(m) && (
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => window.confirm(MEMBERSHIP_MESSAGES.confirmRemove(m.email)) && remove.mutate(m.userId)}>
              Remove
            </button>
          )}
        </div>
      ),
    },
  ];
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {members.isError ? (
        <p className="error-text" role="alert">
          {messageOf(members.error, 'The members could not be loaded.')}
        </p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={members.data?.members ?? []} rowKey={(m) => m.userId} />
        </div>
      )}
      <ul className="role-labels muted">
        {(['owner', ...ASSIGNABLE_ROLES] as const).map((r) => (
          <li key={r}>{WORKSPACE_ROLE_LABELS[r]}</li>
        ))}
      </ul>
    </section>
  );
}

function MemberName({ member, me }: { member: MemberView; me: string }) {
  return (
    <>
      {member.username} {member.email === me && <span className="tag tag-info">You</span>}
      <br />
      <span className="muted">{member.email}</span>
    </>
  );
}

/** The invitation form (for those who manage members) and the open invitations, with resend and revoke. */
function InvitationsSection({ workspace }: { workspace: WorkspaceView }) {
  const client = useQueryClient();
  const invitations = useQuery<InvitationList>({ queryKey: workspaceKeys.invitations });
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: workspaceKeys.invitations });
  const manages = workspaceAllows(workspace.role, 'members:manage', { personal: workspace.personal });
  const invite = useMutation({
    mutationFn: inviteMember,
    onSuccess: (made) => {
      setProblem(null);
      toast({ title: MEMBERSHIP_MESSAGES.invited(made.email) });
      void refresh();
    },
    onError: (err) => setProblem(messageOf(err, 'The invitation could not be sent.')),
  });
  const resend = useMutation({
    mutationFn: resendInvitation,
    onSuccess: (sent) => {
      toast({ title: MEMBERSHIP_MESSAGES.resent(sent.email) });
      void refresh();
    },
    onError: failed('Could not send the invitation again'),
  });
  const revoke = useMutation({ mutationFn: revokeInvitation, onSuccess: refresh, onError: failed('Could not revoke the invitation') });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const input = inviteMemberSchema.safeParse({ email: String(data.get('email') ?? ''), role: String(data.get('role') ?? '') });
    if (!input.success) return setProblem(input.error.issues[0]!.message);
    invite.mutate(input.data, { onSuccess: () => form.reset() });
  };
  const columns: ReadonlyArray<TableColumn<InvitationView>> = [
    { header: 'Address', rowHeader: true, cell: (i) => i.email },
    { header: 'Role', cell: (i) => WORKSPACE_ROLE_NAMES[i.role] },
    { header: 'Invited by', cell: (i) => i.invitedBy ?? '—' },
    { header: 'Link works until', cell: (i) => (i.expired ? <span className="tag tag-warn">Expired {dateText(i.expiresAt)}</span> : dateText(i.expiresAt)) },
    ...(manages
      ? [
          {
            header: 'Actions',
            hideHeader: true,
            cell: (i: InvitationView) => (
              <div className="button-row member-actions">
                <button type="button" className="btn btn-ghost btn-sm" disabled={resend.isPending} onClick={() => resend.mutate(i.id)} aria-label={`Resend the invitation to ${i.email}`}>
                  Resend
                </button>
                <button type="button" className="btn btn-ghost btn-sm" disabled={revoke.isPending} onClick={() => revoke.mutate(i.id)} aria-label={`Revoke the invitation to ${i.email}`}>
                  Revoke
                </button>
              </div>
            ),
          },
        ]
      : []),
  ];
  const open = invitations.data?.invitations ?? [];
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      {open.length === 0 ? (
        <p className="muted">{invitations.isPending ? 'Loading...' : 'No open invitations.'}</p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={open} rowKey={(i) => i.id} />
        </div>
      )}
      {manages && (
        <form className="invite-form" onSubmit={submit} aria-label="Invite someone" noValidate>
          <div className="form-field">
            <label htmlFor="invite-email">E-mail address</label>
            <input id="invite-email" name="email" type="email" autoComplete="off" placeholder="name@example.com" />
          </div>
          <fieldset>
            <legend>Role</legend>
            {ASSIGNABLE_ROLES.map((r) => (
              <label className="checkbox-line" key={r}>
                <input type="radio" name="role" value={r} defaultChecked={r === 'member'} /> {WORKSPACE_ROLE_LABELS[r]}
              </label>
            ))}
          </fieldset>
          {problem && (
            <p className="error-text" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </button>
        </form>
      )}
    </section>
  );
}

/** Leaving, or (the owner) deleting the workspace: the app then loads again in one's own workspace. */
function LeaveSection({ workspace }: { workspace: WorkspaceView }) {
  const scope = { personal: workspace.personal };
  const leave = useMutation({ mutationFn: leaveWorkspace, onSuccess: () => reloadAt('/dashboard'), onError: failed('Could not leave the workspace') });
  const remove = useMutation({ mutationFn: deleteWorkspace, onSuccess: () => reloadAt('/dashboard'), onError: failed('Could not delete the workspace') });
  const canLeave = workspaceAllows(workspace.role, 'workspace:leave', scope);
  const canDelete = workspaceAllows(workspace.role, 'workspace:delete', scope);
  if (!canLeave && !canDelete) return null;
  return (
    <section className="card" aria-labelledby="leave-title">
      <h2 id="leave-title">{canDelete ? 'Delete the workspace' : 'Leave the workspace'}</h2>
      {canLeave && (
        <button type="button" className="btn btn-outline" disabled={leave.isPending} onClick={() => window.confirm(MEMBERSHIP_MESSAGES.confirmLeave(workspace.name)) && leave.mutate()}>
          Leave {workspace.name}
        </button>
      )}
      {canDelete && (
        <>
          <p className="muted">To leave a workspace you own, make another member its owner first.</p>
          <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => window.confirm(MEMBERSHIP_MESSAGES.confirmDelete(workspace.name)) && remove.mutate()}>
            Delete {workspace.name}
          </button>
        </>
      )}
    </section>
  );
}

/**
 * /workspace/members: the members of the workspace requests act in with their roles, the
 * invitations out, leaving and handing over. What each person may do here is what the policy
 * (workspaceAllows) says their role may, the same answer the api gives.
 */
export default function MembersPage() {
  usePageTitle('Members');
  const { profile } = useProfile();
  const { workspace, loading } = useCurrentWorkspace();
  if (loading) {
    return (
      <div className="container page-loading" role="status">
        Loading the workspace...
      </div>
    );
  }
  if (!profile) return <Navigate to={`/login?redirect=${encodeURIComponent('/workspace/members')}`} replace />;
  if (!workspace) {
    return (
      <div className="container page-narrow" role="alert">
        The workspace could not be loaded. Please reload the page.
      </div>
    );
  }
  return (
    <div className="container members-page">
      <div className="dashboard-head">
        <div>
          <h1>{workspace.name}</h1>
          <p className="muted">
            Your role: {WORKSPACE_ROLE_LABELS[workspace.role]}
          </p>
        </div>
        <Link to="/dashboard" className="btn btn-outline">
          Dashboard
        </Link>
      </div>
      {workspace.personal ? (
        <section className="card">
          <h2>Your personal workspace</h2>
          <p className="muted">Only you are in it. To work with others, make a team workspace with “New workspace” in the workspace menu, then invite them there.</p>
        </section>
      ) : (
        <div className="members-sections">
          <MembersSection workspace={workspace} me={profile.email} />
          <InvitationsSection workspace={workspace} />
          <LeaveSection workspace={workspace} />
        </div>
      )}
    </div>
  );
}
