import { USER_MESSAGES } from '@receipts/common';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { VerifyEmailPage } from './verify-email-page.js';

const PROFILE = { username: 'ann', email: 'ann@example.com', userType: 'user', emailVerified: false };
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** The api as the page sees it: signed in or not, and what confirming the token answers. */
function stubApi(signedIn: boolean, verify: Response) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === '/api/user/profile') return signedIn ? answer(200, PROFILE) : answer(401, { error: 'UNAUTHENTICATED', message: 'Authentication required' });
    if (url === '/api/auth/verify-email') return verify;
    return answer(404, { error: 'NOT_FOUND', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('verify-email page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends a visitor who is not signed in to sign in, and back here after', async () => {
    const fetchMock = stubApi(false, answer(200, {}));
    renderAt(<VerifyEmailPage />, '/verify-email?token=abc');
    // The profile read retries a 401 once after 500 ms (spec §7) before it counts as signed out.
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login?redirect=%2Fverify-email%3Ftoken%3Dabc'), { timeout: 3000 });
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/verify-email')).toBe(false);
  });

  it('confirms the signed-in account with the token', async () => {
    const fetchMock = stubApi(true, answer(200, { message: USER_MESSAGES.emailConfirmed, user: { ...PROFILE, emailVerified: true } }));
    renderAt(<VerifyEmailPage />, '/verify-email?token=abc');
    await screen.findByRole('heading', { name: 'E-mail Address Confirmed' }, { timeout: 3000 });
    const calls = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/verify-email');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]![1]?.body))).toEqual({ token: 'abc' });
  });

  it('says when the link is not valid, and offers a new one', async () => {
    stubApi(true, answer(400, { error: 'INVALID_TOKEN', message: USER_MESSAGES.invalidConfirmationLink }));
    renderAt(<VerifyEmailPage />, '/verify-email?token=old');
    await screen.findByRole('heading', { name: 'Invalid Confirmation Link' }, { timeout: 3000 });
    expect(screen.getByText(USER_MESSAGES.invalidConfirmationLink)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend verification e-mail' })).toBeTruthy();
  });
});
