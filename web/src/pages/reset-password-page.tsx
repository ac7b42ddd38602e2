import { resetPasswordSchema, USER_MESSAGES } from '@receipts/common';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../components/form-fields.js';
import { useFormSubmit } from '../hooks/use-form-submit.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { ApiError, messageOf } from '../lib/api.js';
import { resetPassword } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';

const INVALID_LINK = USER_MESSAGES.invalidResetLink;

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

  // Without a token there is nothing to reset: say so and go where a new link can be asked for.
  useEffect(() => {
    if (token) return;
    toast({ title: 'Invalid reset link', description: INVALID_LINK, variant: 'destructive' });
    navigate('/forgot-password', { replace: true });
  }, [token, navigate]);

  const { errors, pending, onSubmit } = useFormSubmit({
    schema: resetPasswordSchema,
    values: (form) => ({ password: form.get('password'), confirmPassword: form.get('confirmPassword'), token: token ?? '' }),
    send: async (data) => {
      await resetPassword(data);
      toast({ title: USER_MESSAGES.passwordResetSuccessful });
      setState('success');
    },
    failed: (err) => {
      if (err instanceof ApiError && err.code === 'INVALID_TOKEN') setState('invalid');
      toast({ title: 'Reset failed', description: messageOf(err, 'Failed to reset password. The link may have expired.'), variant: 'destructive' });
    },
  });

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
        <form onSubmit={onSubmit} noValidate>
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
