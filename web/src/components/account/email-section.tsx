import { changeEmailSchema } from '@receipts/common';
import { useFormSubmit } from '../../hooks/use-form-submit.js';
import { useRefreshAccount } from '../../hooks/use-account.js';
import { changeEmail } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { PasswordField, TextField } from '../form-fields.js';

/** Change e-mail: the new address, confirmed with the current password. */
export function EmailSection({ email }: { email: string }) {
  const refresh = useRefreshAccount();
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: changeEmailSchema,
    values: (form) => ({ email: form.get('email'), currentPassword: form.get('currentPassword') }),
    send: async (data) => {
      const { message } = await changeEmail(data);
      toast({ title: 'E-mail changed', description: message });
      (document.getElementById('email-form') as HTMLFormElement | null)?.reset();
      await refresh();
    },
    failed: (err) => toast({ title: 'E-mail not changed', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <section className="card account-section" aria-labelledby="email-title">
      <h2 id="email-title">Change e-mail</h2>
      <p className="muted">
        Signed in as <strong className="account-email" data-testid="account-email">{email}</strong>. Receipts, reset links and notices go to this address.
      </p>
      <form id="email-form" onSubmit={onSubmit} noValidate>
        <TextField label="New e-mail" name="email" type="email" autoComplete="email" error={errors.email} />
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" error={errors.currentPassword} />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Changing...' : 'Change e-mail'}
        </button>
      </form>
    </section>
  );
}
