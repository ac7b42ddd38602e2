import { forgotPasswordSchema } from '@receipts/common';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { TextField } from '../components/form-fields.js';
import { useFormSubmit } from '../hooks/use-form-submit.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { forgotPassword } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: forgotPasswordSchema,
    values: (form) => ({ email: form.get('email') }),
    send: async (data) => {
      await forgotPassword(data);
      toast({ title: 'Reset email sent!' });
      setSentTo(data.email);
    },
    failed: (err) => toast({ title: 'Request failed', description: messageOf(err, 'Failed to send reset email. Please try again.'), variant: 'destructive' }),
  });

  if (sentTo) {
    return (
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>Check Your Email</h1>
          <p>
            If an account exists for <strong>{sentTo}</strong>, a link to reset its password is on its way. The link works for a limited time.
          </p>
          <div className="button-row">
            <button type="button" className="btn btn-outline" onClick={() => setSentTo(null)}>
              Try Again
            </button>
            <Link to="/login" className="btn btn-primary">
              Back to Sign In
            </Link>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1>Forgot your password?</h1>
        <p className="muted">Enter your e-mail and we will send you a link to choose a new one.</p>
        <form onSubmit={onSubmit} noValidate>
          <TextField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
          <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
            {pending ? 'Sending...' : 'Send reset link'}
          </button>
        </form>
        <p className="auth-switch">
          Remembered it? <Link to="/login">Back to Sign In</Link>
        </p>
      </div>
    </div>
  );
}
