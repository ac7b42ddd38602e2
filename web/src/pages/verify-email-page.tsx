import { FREE_DAILY_LIMIT, USER_MESSAGES } from '@receipts/common';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useProfile, useRefreshAccount } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { useResendVerification } from '../hooks/use-resend-verification.js';
import { ApiError, messageOf } from '../lib/api.js';
import { verifyEmail } from '../lib/auth-api.js';
import { loginPathFor } from '../lib/login-redirect.js';

type State = { kind: 'confirming' } | { kind: 'confirmed'; message: string } | { kind: 'invalid'; message: string };

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="container auth-page">
      <div className="card auth-card" role="status">
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}

/**
 * /verify-email?token=…, the link of the confirmation mail. The link confirms the address of the
 * account signed in with the password chosen at sign-up, so a visitor who is not signed in signs
 * in first and comes back here.
 */
export function VerifyEmailPage() {
  usePageTitle('Confirm your e-mail address');
  const [params] = useSearchParams();
  const token = params.get('token');
  const { profile, loading } = useProfile();
  const refresh = useRefreshAccount();
  const { resend, pending } = useResendVerification();
  const [state, setState] = useState<State>({ kind: 'confirming' });
  const sent = useRef(false);

  useEffect(() => {
    if (!token || !profile || sent.current) return;
    sent.current = true;
    verifyEmail(token)
      .then(async ({ message }) => {
        await refresh();
        setState({ kind: 'confirmed', message });
      })
      .catch((err: unknown) => {
        const message = err instanceof ApiError && err.code === 'INVALID_TOKEN' ? err.userMessage : messageOf(err, USER_MESSAGES.somethingWentWrong);
        setState({ kind: 'invalid', message });
      });
  }, [token, profile, refresh]);

  if (!token) {
    return (
      <Card title="Invalid Confirmation Link">
        <p>{USER_MESSAGES.invalidConfirmationLink}</p>
      </Card>
    );
  }
  if (loading) return <Card title="Confirming your e-mail address...">{null}</Card>;
  if (!profile) return <Navigate to={loginPathFor(`/verify-email?${new URLSearchParams({ token }).toString()}`)} replace />;
  if (state.kind === 'confirming') return <Card title="Confirming your e-mail address...">{null}</Card>;
  if (state.kind === 'confirmed') {
    return (
      <Card title="E-mail Address Confirmed">
        <p>
          {state.message} Your account now has {FREE_DAILY_LIMIT} receipts a day of its own, and premium plans are open to it.
        </p>
        <div className="button-row">
          <Link to="/dashboard" className="btn btn-primary">
            Go to Dashboard
          </Link>
          <Link to="/" className="btn btn-outline">
            Upload Receipts
          </Link>
        </div>
      </Card>
    );
  }
  return (
    <Card title="Invalid Confirmation Link">
      <p>{state.message}</p>
      {!profile.emailVerified && (
        <button type="button" className="btn btn-primary" onClick={() => void resend()} disabled={pending}>
          {pending ? 'Sending...' : 'Resend verification e-mail'}
        </button>
      )}
    </Card>
  );
}
