import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { apiJson, apiPost, messageOf } from '../lib/api.js';
import { toast } from '../lib/toast.js';

interface AdminUser {
  id: string;
  email: string;
  username: string;
  userType: 'admin' | 'user';
  plan: string;
  status: string;
  uploads: number;
  failed: number;
  usedToday: number;
}
interface AdminUpload {
  id: string;
  filename: string;
  status: string;
  error: string | null;
  lane: string;
  attempts: number;
  createdAt: string;
  ownerEmail: string | null;
}
interface QueueStats {
  lanes: Record<string, { waiting: number }>;
  jobs: Record<string, number>;
  processingUploads: number;
}

export default function AdminPage() {
  usePageTitle('Admin Panel');
  const { profile, loading } = useProfile();
  const isAdmin = profile?.userType === 'admin';
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const users = useQuery<AdminUser[]>({
    queryKey: ['/api/admin/users', search],
    queryFn: () => apiJson(`/api/admin/users${search ? `?search=${encodeURIComponent(search)}` : ''}`),
    enabled: isAdmin,
  });
  const failed = useQuery<AdminUpload[]>({ queryKey: ['/api/admin/uploads?status=failed'], enabled: isAdmin });
  const queues = useQuery<QueueStats>({ queryKey: ['/api/admin/queues'], enabled: isAdmin, refetchInterval: 10_000 });
  const setType = useMutation({
    mutationFn: (u: { id: string; userType: 'admin' | 'user' }) => apiJson(`/api/admin/users/${u.id}`, { method: 'PATCH', json: { userType: u.userType } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['/api/admin/users'] }),
    onError: (err) => toast({ title: 'Could not change the user', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const retry = useMutation({
    mutationFn: (id: string) => apiPost(`/api/admin/uploads/${id}/retry`),
    onSuccess: () => {
      toast({ title: 'Upload queued again' });
      void client.invalidateQueries({ queryKey: ['/api/admin/uploads?status=failed'] });
    },
    onError: (err) => toast({ title: 'Retry failed', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

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
          <table className="table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Plan</th>
                <th scope="col">Uploads</th>
                <th scope="col">Failed</th>
                <th scope="col">Today</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {(users.data ?? []).map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.username}
                    <br />
                    <span className="muted small">{u.email}</span>
                  </td>
                  <td>
                    {u.plan} ({u.status})
                  </td>
                  <td>{u.uploads}</td>
                  <td>{u.failed}</td>
                  <td>{u.usedToday}</td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${u.id}`}>
                      Role of {u.email}
                    </label>
                    <select
                      id={`role-${u.id}`}
                      value={u.userType}
                      onChange={(e) => setType.mutate({ id: u.id, userType: e.target.value as 'admin' | 'user' })}
                    >
                      <option value="user">user</option>
                      <option value="admin">admin</option>
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card" aria-labelledby="failed-title">
        <h2 id="failed-title">Failed uploads</h2>
        {(failed.data ?? []).length === 0 ? (
          <p className="muted">No failed uploads.</p>
        ) : (
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Error</th>
                  <th scope="col">When</th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {failed.data!.map((u) => (
                  <tr key={u.id}>
                    <td>{u.filename}</td>
                    <td>{u.ownerEmail ?? 'anonymous'}</td>
                    <td className="error-text">{u.error}</td>
                    <td>{new Date(u.createdAt).toLocaleString()}</td>
                    <td>
                      <button type="button" className="btn btn-outline btn-sm" onClick={() => retry.mutate(u.id)} disabled={retry.isPending}>
                        Retry
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
