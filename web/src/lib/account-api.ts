import { apiFetch, ApiError } from './api.js';

/** Reads of the visitor's account; each key is the url the shared query function reads (spec §7). */
export const accountKeys = {
  profile: ['/api/user/profile'] as const,
  quota: ['/api/user/quota'] as const,
  subscription: ['/api/user/subscription'] as const,
};

/** The status of the profile call alone: is there a session to subscribe with? (spec §4). Throws on a network failure. */
export async function profileStatus(): Promise<number> {
  try {
    return (await apiFetch(accountKeys.profile[0])).status;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}
