import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountKeys } from '../lib/account-api.js';
import { createQueryClient } from '../lib/query-client.js';
import { useProfile, useRefreshAccount } from './use-account.js';

const PROFILE = { username: 'reviewer', email: 'reviewer@example.com', userType: 'user', emailVerified: false };

/**
 * The browser's fetch for the account reads, answering each request as the session it was sent
 * with: anonymous (401) before `signIn()`, signed in after. Anonymous profile answers are held
 * until released, as a loaded server answers late.
 */
function accountServer() {
  let signedIn = false;
  const held: Array<() => void> = [];
  const sent: string[] = [];
  const answer = (body: unknown, status: number) => new Response(status === 200 ? JSON.stringify(body) : '{"error":"UNAUTHENTICATED"}', { status });
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const session = signedIn ? 'signed in' : 'anonymous';
    sent.push(`${url} as ${session}`);
    const response = signedIn ? answer(url === accountKeys.profile[0] ? PROFILE : { used: 0 }, 200) : answer(null, 401);
    if (url !== accountKeys.profile[0] || signedIn) return response;
    return new Promise<Response>((resolve) => held.push(() => resolve(response)));
  });
  return {
    fetch,
    sent,
    signIn: () => (signedIn = true),
    /** Answers every profile request sent so far. */
    release: () => held.splice(0).forEach((answerNow) => answerNow()),
    heldCount: () => held.length,
  };
}

describe('useRefreshAccount', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('reads the profile again after signing in, even while a read sent before it is still unanswered', async () => {
    const server = accountServer();
    vi.stubGlobal('fetch', server.fetch);
    const client: QueryClient = createQueryClient(() => undefined);
    let refresh: () => Promise<unknown> = async () => undefined;
    function Page() {
      useProfile();
      refresh = useRefreshAccount();
      return null;
    }
    render(
      <QueryClientProvider client={client}>
        <Page />
      </QueryClientProvider>,
    );
    // The page's first profile read answers 401; its one retry (spec §7) is sent, still anonymous.
    await waitFor(() => expect(server.heldCount()).toBe(1));
    server.release();
    await waitFor(() => expect(server.sent.filter((s) => s.startsWith('/api/user/profile'))).toHaveLength(2));

    // Signing in answers before that retry does; the refresh after it must not take the retry's answer.
    server.signIn();
    const refreshed = refresh();
    server.release();
    await refreshed;
    expect(client.getQueryData(accountKeys.profile)).toEqual(PROFILE);
    expect(server.sent).toContain('/api/user/profile as signed in');
  });
});
