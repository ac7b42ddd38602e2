import { FREE_DAILY_LIMIT, quotaExceededMessage } from '@receipts/common';
import { Link } from 'react-router-dom';
import { useProfile, useQuota, useSubscription } from '../hooks/use-account.js';
import { useResendVerification } from '../hooks/use-resend-verification.js';
import { useUploadActions } from '../hooks/use-upload-actions.js';
import { CurrencySelect } from './currency-select.js';
import { DropZone } from './drop-zone.js';
import { QuotaBadge } from './quota-badge.js';
import { messageOf } from '../lib/api.js';
import { toast } from '../lib/toast.js';
import type { UploadMethod } from '../lib/analytics-events.js';
import type { UploadItem } from '../stores/upload-store.js';
import { UploadList } from './upload-list.js';
import './uploader-card.css';

/** An unconfirmed account's allowance is used up: confirming the address gives it its own. */
function ConfirmPrompt() {
  const { resend, pending } = useResendVerification();
  return (
    <div className="limit-prompt" role="status" data-testid="limit-prompt">
      <p>
        <strong>{quotaExceededMessage(true)}</strong>
      </p>
      <p className="muted">Confirm your e-mail address (follow the link we sent you) to get {FREE_DAILY_LIMIT} receipts a day of your own.</p>
      <button type="button" className="btn btn-primary" onClick={() => void resend()} disabled={pending}>
        {pending ? 'Sending...' : 'Resend verification e-mail'}
      </button>
    </div>
  );
}

/** What shows instead of the drop zone when the quota is used up: sign up, confirm the address, or upgrade. */
function LimitPrompt({ signedIn, confirmed, subscribed }: { signedIn: boolean; confirmed: boolean; subscribed: boolean }) {
  if (!signedIn) {
    return (
      <div className="limit-prompt" role="status" data-testid="limit-prompt">
        <p>
          <strong>{quotaExceededMessage(false)}</strong>
        </p>
        <p className="muted">A free account gets 5 receipts every day, and your receipts stay in your library.</p>
        <div className="button-row">
          <Link to="/register" className="btn btn-primary">
            Sign up free
          </Link>
          <Link to="/login" className="btn btn-outline">
            Sign in
          </Link>
        </div>
      </div>
    );
  }
  if (!confirmed && !subscribed) return <ConfirmPrompt />;
  if (subscribed) {
    return (
      <div className="limit-prompt" role="status" data-testid="limit-prompt">
        <p>
          <strong>You have used all receipts of this billing period.</strong>
        </p>
        <p className="muted">Choose a larger plan to keep going, or wait for your next billing date.</p>
        <Link to="/pricing" className="btn btn-primary">
          Change Plan
        </Link>
      </div>
    );
  }
  return (
    <div className="limit-prompt" role="status" data-testid="limit-prompt">
      <p>
        <strong>{quotaExceededMessage(true)}</strong>
      </p>
      <p className="muted">Premium plans process 100 to 10,000 receipts a month on the express lane.</p>
      <Link to="/pricing" className="btn btn-primary">
        Upgrade to Premium
      </Link>
    </div>
  );
}

/** After files are chosen the list they join comes into view (it sits below the drop zone, often below the fold). */
function showUploads(): void {
  requestAnimationFrame(() => {
    const list = document.getElementById('uploads-title');
    if (list && list.getBoundingClientRect().top > window.innerHeight - 160) list.scrollIntoView({ behavior: 'smooth', block: 'start' });
  });
}

export function UploaderCard({ currency, onCurrency }: { currency: string; onCurrency: (code: string) => void }) {
  const { signedIn, profile } = useProfile();
  const { quota } = useQuota();
  const { subscription } = useSubscription(signedIn);
  const subscribed = Boolean(subscription?.isActive);
  const { send, uploadAgain, remove, discard } = useUploadActions(signedIn);
  const choose = (files: File[], method: UploadMethod) => {
    send(files, currency, method);
    if (files.length > 0) showUploads();
  };
  const confirmDelete = (item: UploadItem) => {
    if (!window.confirm(`Delete ${item.filename}? Its receipt leaves My Receipts and every export.`)) return;
    discard(item).then(
      () => toast({ title: 'Receipt deleted' }),
      (err: unknown) => toast({ title: 'Could not delete', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
    );
  };

  return (
    <>
      <section className="card uploader" id="upload" aria-labelledby="upload-title">
        <h2 id="upload-title">Try it now - Upload a receipt</h2>
        <div className="uploader-toolbar">
          <CurrencySelect value={currency} onChange={onCurrency} />
          <QuotaBadge quota={quota} monthly={subscribed} />
        </div>
        {quota.canProcess ? (
          <DropZone disabled={false} onFiles={choose} />
        ) : (
          <>
            <DropZone disabled onFiles={() => undefined} />
            <LimitPrompt signedIn={signedIn} confirmed={Boolean(profile?.emailVerified)} subscribed={subscribed} />
          </>
        )}
        <p className="muted small">
          JPG, PNG, PDF, HEIC up to 10MB. Each file moves through the queue live; you can leave and come back.
        </p>
      </section>
      <UploadList onRemove={(item) => void remove(item)} onDelete={confirmDelete} onUploadAgain={uploadAgain} />
    </>
  );
}
