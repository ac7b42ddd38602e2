import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { deleteAccount } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { PasswordField } from '../form-fields.js';

/** Delete account: every receipt, file and session with it, after the password and a confirmation. */
export function DeleteSection() {
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    if (!password) {
      setError('Enter your password to delete your account.');
      return;
    }
    if (form.get('confirm') !== 'yes') {
      setError('Tick the box to confirm that everything will be deleted.');
      return;
    }
    setError(null);
    setPending(true);
    try {
      await deleteAccount(password);
      client.clear();
      // A whole new page: nothing of the account stays in memory.
      window.location.assign('/?deleted=1');
    } catch (err) {
      setPending(false);
      toast({ title: 'Account not deleted', description: messageOf(err, 'Please try again.'), variant: 'destructive' });
    }
  };
  return (
    <section className="card account-section account-danger" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>This deletes your account, every receipt and original file, and cancels your plan. It cannot be undone: download your data first if you want a copy.</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <PasswordField label="Password" name="password" autoComplete="current-password" error={error ?? undefined} />
        <label className="checkbox-line">
          <input type="checkbox" name="confirm" value="yes" /> I understand that everything is deleted for good.
        </label>
        <button type="submit" className="btn btn-danger" disabled={pending}>
          {pending ? 'Deleting...' : 'Delete my account'}
        </button>
      </form>
    </section>
  );
}
