import type { AdminUpload, AdminUser, QueueStats } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { DataTable, type TableColumn } from '../components/data-table.js';
import { useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { adminKeys, isUsersKey, retryUpload, setUserType } from '../lib/admin-api.js';
import { messageOf } from '../lib/api.js';
import { toast } from '../lib/toast.js';
import './admin-page.css';

export default function AdminPage() {
  usePageTitle('Admin Panel');
  const { profile, loading } = useProfile();
  const isAdmin = profile?.userType === 'admin';
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const users = useQuery<AdminUser[]>({ queryKey: adminKeys.users(search), enabled: isAdmin });
  const failed = useQuery<AdminUpload[]>({ queryKey: adminKeys.failedUploads, enabled: isAdmin });
  const queues = useQuery<QueueStats>({ queryKey: adminKeys.queues, enabled: isAdmin, refetchInterval: 10_000 });
  const setType = useMutation({
    mutationFn: setUserType,
    onSuccess: () => void client.invalidateQueries({ predicate: (q) => isUsersKey(q.queryKey) }),
    onError: (err) => toast({ title: 'Could not change the user', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const retry = useMutation({
    mutationFn: retryUpload,
    onSuccess: () => {
      toast({ title: 'Upload queued again' });
      void client.invalidateQueries({ queryKey: adminKeys.failedUploads });
    },
    onError: (err) => toast({ title: 'Retry failed', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  const userColumns: ReadonlyArray<TableColumn<AdminUser>> = [
    {
      header: 'User',
      cell: (u) => (
        <>
          {u.username}
          {!u.emailVerified && (
            <span className="tag" title="Address not confirmed: anonymous allowance, no plans, no admin rights">
              unconfirmed
            </span>
          )}
          <br />
          <span className="muted small">{u.email}</span>
        </>
      ),
    },
    { header: 'Plan', cell: (u) => `${u.plan} (${u.status})` },
    { header: 'Uploads', cell: (u) => u.uploads },
    { header: 'Failed', cell: (u) => u.failed },
    { header: 'Today', cell: (u) => u.usedToday },
    {
      header: 'Role',
      cell: (u) => (
        <>
          <label className="visually-hidden" htmlFor={`role-${u.id}`}>
            Role of {u.email}
          </label>
          <select id={`role-${u.id}`} value={u.userType} onChange={(e) => setType.mutate({ id: u.id, userType: e.target.value as 'admin' | 'user' })}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </select>
        </>
      ),
    },
  ];
  const failedColumns: ReadonlyArray<TableColumn<AdminUpload>> = [
    { header: 'File', cell: (u) => u.filename },
    { header: 'Owner', cell: (u) => u.ownerEmail ?? 'anonymous' },
    { header: 'Error', cellClassName: 'error-text', cell: (u) => u.error },
    { header: 'When', cell: (u) => new Date(u.createdAt).toLocaleString() },
    {
      header: 'Action',
      hideHeader: true,
      cell: (u) => (
        <button type="button" className="btn btn-outline btn-sm" onClick={() => retry.mutate(u.id)} disabled={retry.isPending}>
          Retry
        </button>
      ),
    },
  ];

  if (loading) return <div className="container page-loading">Loading admin...</div>;
  if (!profile) return <Navigate to="/login?redirect=%2Fadmin" replace />;
  if (!isAdmin) {
    return (
      <div className="container page-narrow">
        <h1>Admin Panel</h1>
        <p>This page is for administrators only.</p>
      </div>
    );
  }

  return (
    <div className="container admin">
      <h1>Admin Panel</h1>
      <section className="stat-cards" aria-label="Queue">
        {Object.entries(queues.data?.lanes ?? {}).map(([lane, v]) => (
          <article key={lane} className="card stat-card">
            <h2>{lane} lane waiting</h2>
            <p className="stat-card-value">{v.waiting}</p>
          </article>
        ))}
        <article className="card stat-card">
          <h2>Processing now</h2>
          <p className="stat-card-value">{queues.data?.processingUploads ?? '—'}</p>
        </article>
        <article className="card stat-card">
          <h2>Queue dashboard</h2>
          <a href="/admin/queues">Open BullMQ dashboard</a>
        </article>
      </section>

      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">Users</h2>
        <form
          className="search-row"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(String(new FormData(e.currentTarget).get('q') ?? '').trim());
          }}
        >
          <label htmlFor="admin-search" className="visually-hidden">
            Search users
          </label>
          <input id="admin-search" name="q" type="search" placeholder="E-mail or username" defaultValue={search} />
          <button type="submit" className="btn btn-outline">
            Search
          </button>
        </form>
        <div className="table-scroll">
          <DataTable columns={userColumns} rows={users.data ?? []} rowKey={(u) => u.id} />
        </div>
      </section>

      <section className="card" aria-labelledby="failed-title">
        <h2 id="failed-title">Failed uploads</h2>
        {(failed.data ?? []).length === 0 ? (
          <p className="muted">No failed uploads.</p>
        ) : (
          <div className="table-scroll">
            <DataTable columns={failedColumns} rows={failed.data!} rowKey={(u) => u.id} />
          </div>
        )}
      </section>
    </div>
  );
}
