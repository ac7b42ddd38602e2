import type { QueryKey } from '@tanstack/react-query';
import { apiJson, apiPost } from './api.js';

export interface AdminUser {
  id: string;
  email: string;
  username: string;
  /** The effective role: an admin candidate is admin only once its address is confirmed. */
  userType: 'admin' | 'user';
  emailVerified: boolean;
  plan: string;
  status: string;
  uploads: number;
  failed: number;
  usedToday: number;
}
export interface AdminUpload {
  id: string;
  filename: string;
  status: string;
  error: string | null;
  lane: string;
  attempts: number;
  createdAt: string;
  ownerEmail: string | null;
}
export interface QueueStats {
  lanes: Record<string, { waiting: number }>;
  jobs: Record<string, number>;
  processingUploads: number;
}

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
