import { loginSchema } from '@receipts/common';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PasswordField, TextField } from '../components/form-fields.js';
import { useAuthSuccess } from '../hooks/use-auth-success.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { apiPost, messageOf } from '../lib/api.js';
import { validate, type FieldErrors } from '../lib/form-errors.js';
import { toast } from '../lib/toast.js';

export function LoginPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const done = useAuthSuccess();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const result = validate(loginSchema, { email: form.get('email'), password: form.get('password') });
    setErrors(result.errors ?? {});
    if (!result.data) return;
    setPending(true);
    try {
      await apiPost('/api/auth/login', result.data);
      toast({ title: 'Welcome back!' });
      await done();
    } catch (err) {
      toast({ title: 'Login failed', description: messageOf(err, 'Invalid email or password'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1>Sign in</h1>
        <p className="muted">Welcome back. Sign in to see your receipts and quota.</p>
        {redirect?.includes('/subscribe') && (
          <p className="notice" role="note">
            Please sign in to subscribe to a premium plan. You will continue to checkout right after.
          </p>
        )}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <TextField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
          <PasswordField label="Password" name="password" autoComplete="current-password" error={errors.password} />
          <div className="form-row-end">
            <Link to="/forgot-password">Forgot password?</Link>
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
            {pending ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
        <p className="auth-switch">
          Don&apos;t have an account? <Link to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}>Sign up</Link>
        </p>
      </div>
    </div>
  );
}
