import { changePasswordSchema } from '@receipts/common';
import { useFormSubmit } from '../../hooks/use-form-submit.js';
import { changePassword } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { PasswordField } from '../form-fields.js';

/** Change password: the current one, then the new one twice; other devices are signed out. */
export function PasswordSection() {
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: changePasswordSchema,
    values: (form) => ({ currentPassword: form.get('currentPassword'), password: form.get('password'), confirmPassword: form.get('confirmPassword') }),
    send: async (data) => {
      const { message } = await changePassword(data);
      toast({ title: 'Password changed', description: message });
      (document.getElementById('password-form') as HTMLFormElement | null)?.reset();
    },
    failed: (err) => toast({ title: 'Password not changed', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <section className="card account-section" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form id="password-form" onSubmit={onSubmit} noValidate>
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" error={errors.currentPassword} />
        <PasswordField label="New password" name="password" autoComplete="new-password" error={errors.password} />
        <PasswordField label="Confirm new password" name="confirmPassword" autoComplete="new-password" error={errors.confirmPassword} />
        <p className="muted small">At least 6 characters, with an uppercase letter, a lowercase letter and a number. Your other devices will be signed out.</p>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Changing...' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
