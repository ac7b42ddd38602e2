import { loginSchema, USER_MESSAGES } from '@receipts/common';
import { Link, useSearchParams } from 'react-router-dom';
import { PasswordField, TextField } from '../components/form-fields.js';
import { useAuthSuccess } from '../hooks/use-auth-success.js';
import { useFormSubmit } from '../hooks/use-form-submit.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { login } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';
import './login-page.css';

export function LoginPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const done = useAuthSuccess();
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: loginSchema,
    values: (form) => ({ email: form.get('email'), password: form.get('password') }),
    send: async (data) => {
      const { message } = await login(data);
      toast({ title: message });
      await done();
    },
    failed: (err) => toast({ title: 'Login failed', description: messageOf(err, USER_MESSAGES.invalidCredentials), variant: 'destructive' }),
  });

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
        {redirect?.startsWith('/verify-email') && (
          <p className="notice" role="note">
            Sign in with the password you chose at sign-up to confirm your e-mail address.
          </p>
        )}
        <form onSubmit={onSubmit} noValidate>
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
