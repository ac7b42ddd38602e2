import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_MESSAGES,
  auditSummary,
  WORKSPACE_MESSAGES,
  type AuditAction,
  type AuditEventView,
} from '@receipts/common';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useProfile } from '../hooks/use-account.js';
import { useCurrentWorkspace, useWorkspaceAllows } from '../hooks/use-current-workspace.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { AUDIT_PAGE_PATH, auditKeys, readAuditPage, type AuditFilters } from '../lib/audit-api.js';
import './audit-page.css';

function EventRow({ event }: { event: AuditEventView }) {
  return (
    <tr>
      <td className="audit-when">
        <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
      </td>
      <td>{event.actor ?? AUDIT_MESSAGES.system}</td>
      <td>
        <span className="tag audit-action">{AUDIT_ACTION_LABELS[event.action]}</span> {auditSummary(event)}
      </td>
    </tr>
  );
}

/** The trail of the workspace the account acts in, newest first, a page at a time, filtered by kind of act and by member. */
function AuditTrail({ workspaceId }: { workspaceId: string }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const trail = useInfiniteQuery({
    queryKey: auditKeys.trail(workspaceId, filters),
    queryFn: ({ pageParam, signal }) => readAuditPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    meta: { silent: true },
  });
  const events = trail.data?.pages.flatMap((page) => page.events) ?? [];
  const actors = trail.data?.pages[0]?.actors ?? [];
  const filtered = Boolean(filters.action || filters.actor);

  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title" className="visually-hidden">
        Recorded acts
      </h2>
      <div className="audit-filters">
        <div className="form-field">
          <label htmlFor="audit-action">What</label>
          <select id="audit-action" value={filters.action ?? ''} onChange={(e) => setFilters({ ...filters, action: (e.target.value || undefined) as AuditAction | undefined })}>
            <option value="">Every act</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {AUDIT_ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="audit-actor">Who</label>
          <select id="audit-actor" value={filters.actor ?? ''} onChange={(e) => setFilters({ ...filters, actor: e.target.value || undefined })}>
            <option value="">Everyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.email}
              </option>
            ))}
          </select>
        </div>
      </div>
      {trail.isPending ? (
        <p className="muted" role="status">
          Loading the audit trail...
        </p>
      ) : trail.isError ? (
        <p role="alert">{messageOf(trail.error, 'The audit trail could not be loaded.')}</p>
      ) : events.length === 0 ? (
        <p className="muted">{filtered ? AUDIT_MESSAGES.emptyFiltered : AUDIT_MESSAGES.empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="table audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {trail.hasNextPage && (
        <button type="button" className="btn btn-outline audit-more" disabled={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
          {trail.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </button>
      )}
    </section>
  );
}

/** /workspace/audit: who uploaded, corrected, accepted, exported or changed a setting in the workspace, and when; for its owners and admins. */
export default function AuditPage() {
  usePageTitle('Audit trail');
  const { profile } = useProfile();
  const { workspace, loading } = useCurrentWorkspace();
  const allowed = useWorkspaceAllows('audit:read');
  if (loading) {
    return (
      <div className="container page-loading" role="status">
        Loading the audit trail...
      </div>
    );
  }
  if (!profile) return <Navigate to={`/login?redirect=${encodeURIComponent(AUDIT_PAGE_PATH)}`} replace />;
  if (!workspace) {
    return (
      <div className="container page-narrow">
        <p role="alert">Your workspaces could not be loaded. Reload the page to try again.</p>
      </div>
    );
  }
  return (
    <div className="container audit-page">
      <div className="dashboard-head">
        <div>
          <h1>Audit trail</h1>
          <p className="muted">Who did what in {workspace.name}, and when.</p>
        </div>
      </div>
      {allowed ? <AuditTrail key={workspace.id} workspaceId={workspace.id} /> : <p role="alert">{WORKSPACE_MESSAGES.roleForbids}</p>}
    </div>
  );
}
