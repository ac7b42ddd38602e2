import type { QueryKey } from '@tanstack/react-query';
import { apiJson, apiPost } from './api.js';

const USERS = '/api/admin/users';

/** Admin reads; each key is the url the shared query function reads (spec §7). */
export const adminKeys = {
  users: (search: string) => [search ? `${USERS}?search=${encodeURIComponent(search)}` : USERS] as const,
  failedUploads: ['/api/admin/uploads?status=failed'] as const,
  queues: ['/api/admin/queues'] as const,
};

/** Every users read, whatever its search. */
export const isUsersKey = (key: QueryKey) => String(key[0]).startsWith(USERS);

export const setUserType = (u: { id: string; userType: 'admin' | 'user' }) => apiJson(`${USERS}/${u.id}`, { method: 'PATCH', json: { userType: u.userType } });
export const retryUpload = (id: string) => apiPost(`/api/admin/uploads/${id}/retry`);
