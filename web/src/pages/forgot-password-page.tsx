import { forgotPasswordSchema } from '@receipts/common';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { TextField } from '../components/form-fields.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { apiPost, messageOf } from '../lib/api.js';
import { validate, type FieldErrors } from '../lib/form-errors.js';
import { toast } from '../lib/toast.js';

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const result = validate(forgotPasswordSchema, { email: new FormData(e.currentTarget).get('email') });
    setErrors(result.errors ?? {});
    if (!result.data) return;
    setPending(true);
    try {
      await apiPost('/api/auth/forgot-password', result.data);
      toast({ title: 'Reset email sent!' });
      setSentTo(result.data.email);
    } catch (err) {
      toast({ title: 'Request failed', description: messageOf(err, 'Failed to send reset email. Please try again.'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

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
        <form onSubmit={(e) => void submit(e)} noValidate>
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
