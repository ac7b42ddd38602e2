import { registerFormSchema } from '@receipts/common';
import { Link, useSearchParams } from 'react-router-dom';
import { PasswordField, TextField } from '../components/form-fields.js';
import { useAuthSuccess } from '../hooks/use-auth-success.js';
import { useFormSubmit } from '../hooks/use-form-submit.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { register } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';

export function RegisterPage() {
  usePageTitle('Create your account');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const done = useAuthSuccess();
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: registerFormSchema,
    values: (form) => ({ email: form.get('email'), password: form.get('password'), confirmPassword: form.get('confirmPassword') }),
    send: async (data) => {
      // The confirmation is checked here and not sent (spec §3).
      await register({ email: data.email, password: data.password });
      toast({ title: 'Account created successfully!' });
      await done();
    },
    failed: (err) => toast({ title: 'Registration failed', description: messageOf(err, 'Failed to create account. Please try again.'), variant: 'destructive' }),
  });

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
          Already have an account? <Link to={redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}>Sign in</Link>
        </p>
      </div>
    </div>
  );
}
