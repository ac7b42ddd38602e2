import { resetPasswordSchema } from '@receipts/common';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../components/form-fields.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { ApiError, apiPost, messageOf } from '../lib/api.js';
import { validate, type FieldErrors } from '../lib/form-errors.js';
import { toast } from '../lib/toast.js';

const INVALID_LINK = 'This password reset link is invalid or has expired.';

function InvalidLink() {
  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1>Invalid Reset Link</h1>
        <p>{INVALID_LINK}</p>
        <Link to="/forgot-password" className="btn btn-primary">
          Request New Reset Link
        </Link>
      </div>
    </div>
  );
}

export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [state, setState] = useState<'form' | 'success' | 'invalid'>('form');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  // Without a token there is nothing to reset: say so and go where a new link can be asked for.
  useEffect(() => {
    if (token) return;
    toast({ title: 'Invalid reset link', description: INVALID_LINK, variant: 'destructive' });
    navigate('/forgot-password', { replace: true });
  }, [token, navigate]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const result = validate(resetPasswordSchema, { password: form.get('password'), confirmPassword: form.get('confirmPassword'), token: token ?? '' });
    setErrors(result.errors ?? {});
    if (!result.data) return;
    setPending(true);
    try {
      await apiPost('/api/auth/reset-password', result.data);
      toast({ title: 'Password reset successful!' });
      setState('success');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_TOKEN') setState('invalid');
      toast({ title: 'Reset failed', description: messageOf(err, 'Failed to reset password. The link may have expired.'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  if (!token || state === 'invalid') return <InvalidLink />;
  if (state === 'success') {
    return (
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>Password Reset Successful</h1>
          <p>Your password has been changed. Sign in with your new password.</p>
          <Link to="/login" className="btn btn-primary">
            Sign In Now
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1>Choose a new password</h1>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <PasswordField label="New password" name="password" autoComplete="new-password" error={errors.password} />
          <PasswordField label="Confirm new password" name="confirmPassword" autoComplete="new-password" error={errors.confirmPassword ?? errors.token} />
          <p className="muted small">At least 6 characters, with an uppercase letter, a lowercase letter and a number.</p>
          <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
            {pending ? 'Saving...' : 'Reset password'}
          </button>
        </form>
      </div>
    </div>
  );
}
