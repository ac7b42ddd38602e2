import { AUTH_MESSAGES, USER_MESSAGES } from '@receipts/common';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../components/toaster.js';
import { dismissToast } from '../lib/toast.js';
import { renderAt } from '../test-support.js';
import { LoginPage } from './login-page.js';
import { RegisterPage } from './register-page.js';
import { ResetPasswordPage } from './reset-password-page.js';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

describe('auth forms (spec §5 messages)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/auth/login' || url === '/api/auth/register') return new Response(JSON.stringify({ message: 'ok' }), { status: 200 });
      return new Response(JSON.stringify({ error: 'UNAUTHENTICATED', message: 'Authentication required' }), { status: 401 });
    });
    vi.stubGlobal('fetch', fetchMock);
    window.sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('login shows the e-mail and password messages and sends nothing', () => {
    renderAt(<LoginPage />, '/login');
    fill('Email', 'not-an-email');
    fill('Password', '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText(AUTH_MESSAGES.invalidEmail)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordTooShort)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('login says sign-in is needed for premium when coming from subscribe', () => {
    renderAt(<LoginPage />, '/login?redirect=%2Fsubscribe%3Fplan%3Dbusiness%26price%3Dp');
    expect(screen.getByText(/sign in to subscribe to a premium plan/i)).toBeTruthy();
  });

  it('login follows a local redirect, else the pending plan, else the dashboard', async () => {
    renderAt(<LoginPage />, '/login?redirect=https%3A%2F%2Fevil.example');
    window.sessionStorage.setItem('pendingSubscription', JSON.stringify({ planId: 'starter', stripePriceId: 'price_s' }));
    fill('Email', 'a@example.com');
    fill('Password', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/subscribe?plan=starter&price=price_s'));
    expect(window.sessionStorage.getItem('pendingSubscription')).toBeNull();
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/auth/login')!;
    expect(JSON.parse(init.body)).toEqual({ email: 'a@example.com', password: 'secret1' });
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' });
  });

  it.each([
    ['welcomes a first sign-in', USER_MESSAGES.welcome],
    ['welcomes back an account that signed in before', USER_MESSAGES.welcomeBack],
  ])('login %s as the server words it', async (_, welcome) => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/auth/login'
        ? new Response(JSON.stringify({ message: welcome, user: { username: 'a', email: 'a@example.com', userType: 'user', emailVerified: true } }), { status: 200 })
        : new Response(JSON.stringify({ error: 'UNAUTHENTICATED', message: 'Authentication required' }), { status: 401 }),
    );
    renderAt(
      <>
        <LoginPage />
        <Toaster />
      </>,
      '/login',
    );
    fill('Email', 'a@example.com');
    fill('Password', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(welcome)).toBeTruthy();
    act(() => dismissToast());
  });

  it('register needs a strong password and a matching confirmation, and does not send the confirmation', async () => {
    renderAt(<RegisterPage />, '/register');
    fill('Email', 'b@example.com');
    fill('Password', 'weakpass');
    fill('Confirm password', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText(AUTH_MESSAGES.passwordTooWeak)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordsDontMatch)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fill('Password', 'Strong1');
    fill('Confirm password', 'Strong1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const [, init] = await waitFor(() => fetchMock.mock.calls.find(([url]) => url === '/api/auth/register')!);
    expect(JSON.parse(init.body)).toEqual({ email: 'b@example.com', password: 'Strong1' });
  });

  it('after registering, says to check the mail and offers sign-in with the same redirect', async () => {
    renderAt(<RegisterPage />, '/register?redirect=%2Fsubscribe%3Fplan%3Dstarter%26price%3Dp');
    fill('Email', 'c@example.com');
    fill('Password', 'Strong1');
    fill('Confirm password', 'Strong1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { name: 'Check Your Email' });
    expect(screen.getByText('c@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login?redirect=%2Fsubscribe%3Fplan%3Dstarter%26price%3Dp');
    // Registering signs nobody in, so nothing moved.
    expect(screen.getByTestId('location').textContent).toMatch(/^\/register\?/);
  });

  it('reset password without a token goes to /forgot-password', async () => {
    renderAt(<ResetPasswordPage />, '/reset-password');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/forgot-password'));
  });

  it('reset password checks the confirmation on its field', () => {
    renderAt(<ResetPasswordPage />, '/reset-password?token=t0k3n');
    fill('New password', 'Strong1');
    fill('Confirm new password', 'Strong2');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText(AUTH_MESSAGES.passwordsDontMatch)).toBeTruthy();
  });
});
