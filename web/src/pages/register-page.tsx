import { registerFormSchema, USER_MESSAGES } from '@receipts/common';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PasswordField, TextField } from '../components/form-fields.js';
import { useFormSubmit } from '../hooks/use-form-submit.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { register } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';

export function RegisterPage() {
  usePageTitle('Create your account');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const signInPath = redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: registerFormSchema,
    values: (form) => ({ email: form.get('email'), password: form.get('password'), confirmPassword: form.get('confirmPassword') }),
    send: async (data) => {
      // The confirmation is checked here and not sent (spec §3).
      await register({ email: data.email, password: data.password });
      toast({ title: USER_MESSAGES.accountCreated });
      setSentTo(data.email);
    },
    failed: (err) => toast({ title: 'Registration failed', description: messageOf(err, 'Failed to create account. Please try again.'), variant: 'destructive' }),
  });

  // Registering does not sign in (the answer must not tell a new address from a known one); the
  // sign-in link keeps the redirect, so spec §4's destination rules apply once signed in.
  if (sentTo) {
    return (
      <div className="container auth-page">
        <div className="card auth-card" role="status">
          <h1>Check Your Email</h1>
          <p>
            We sent a message to <strong>{sentTo}</strong>. Open the link in it to confirm your address. You can sign in right away. {USER_MESSAGES.unconfirmedAllowance}
          </p>
          <div className="button-row">
            <Link to={signInPath} className="btn btn-primary">
              Sign In
            </Link>
            <button type="button" className="btn btn-outline" onClick={() => setSentTo(null)}>
              Try Again
            </button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1>Create your account</h1>
        <p className="muted">5 free receipts every day, and a library of everything you upload.</p>
        <form onSubmit={onSubmit} noValidate>
          <TextField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
          <PasswordField label="Password" name="password" autoComplete="new-password" error={errors.password} />
          <PasswordField label="Confirm password" name="confirmPassword" autoComplete="new-password" error={errors.confirmPassword} />
          <p className="muted small">At least 6 characters, with an uppercase letter, a lowercase letter and a number.</p>
          <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
            {pending ? 'Creating account...' : 'Create account'}
          </button>
        </form>
        <p className="auth-switch">
          Already have an account? <Link to={signInPath}>Sign in</Link>
        </p>
      </div>
    </div>
  );
}
