import { USER_MESSAGES } from '@receipts/common';
import { MutationCache, QueryCache, QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { ApiError, apiJson, messageOf } from './api.js';

/** Spec §9 query defaults. */
export const QUERY_FRESH_MS = 5 * 60_000;
export const QUERY_KEPT_MS = 10 * 60_000;
export const AUTH_RETRY_DELAY_MS = 500;

export interface QueryMeta extends Record<string, unknown> {
  /** No error toast for this read (the profile: a failure just means anonymous). */
  silent?: boolean;
  /** A 401 answers null instead of failing. */
  nullOn401?: boolean;
}

/** The url a key stands for: its segments joined with slashes (spec §7 default read). */
export function urlOf(key: QueryKey): string {
  return key.map(String).join('/');
}

const isUserRead = (url: string) => url.startsWith('/api/user/');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spec §7 read behaviour: a user read that answers 401 is tried once more after 500 ms (a
 * session that was just created may not be visible yet); still 401 gives the cached value or
 * null. Elsewhere a 401 gives null only when the caller asked for it.
 */
export async function readWith401Rules<T>(
  url: string,
  read: () => Promise<T>,
  options: { cached: T | undefined; nullOn401: boolean; delayMs?: number },
): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    if (isUserRead(url)) {
      await sleep(options.delayMs ?? AUTH_RETRY_DELAY_MS);
      try {
        return await read();
      } catch (again) {
        if (again instanceof ApiError && again.status === 401) return options.cached ?? null;
        throw again;
      }
    }
    if (options.nullOn401) return null;
    throw err;
  }
}

export function createQueryClient(onError: (message: string) => void): QueryClient {
  let client: QueryClient;
  const queryFn: QueryFunction = ({ queryKey, meta, signal }) => {
    const url = urlOf(queryKey);
    return readWith401Rules(url, () => apiJson(url, { signal }), {
      cached: client.getQueryData(queryKey),
      nullOn401: Boolean((meta as QueryMeta | undefined)?.nullOn401 || (meta as QueryMeta | undefined)?.silent),
    });
  };
  client = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!(query.meta as QueryMeta | undefined)?.silent) onError(messageOf(err, USER_MESSAGES.somethingWentWrong));
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: {
        queryFn,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: false,
        refetchInterval: false,
        staleTime: QUERY_FRESH_MS,
        gcTime: QUERY_KEPT_MS,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
