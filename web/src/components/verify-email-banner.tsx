import { USER_MESSAGES } from '@receipts/common';
import { useProfile } from '../hooks/use-account.js';
import { useResendVerification } from '../hooks/use-resend-verification.js';
import './verify-email-banner.css';

/** For a signed-in account whose address is not confirmed: what it may do, and a new link. */
export function VerifyEmailBanner() {
  const { profile } = useProfile();
  const { resend, pending } = useResendVerification();
  if (!profile || profile.emailVerified) return null;
  return (
    <div className="verify-banner" role="region" aria-label="Confirm your e-mail address" data-testid="verify-banner">
      <div className="container verify-banner-inner">
        <p>
          <strong>Confirm your e-mail address.</strong> We sent a link to {profile.email}. {USER_MESSAGES.unconfirmedAllowance}
        </p>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void resend()} disabled={pending}>
          {pending ? 'Sending...' : 'Resend verification e-mail'}
        </button>
      </div>
    </div>
  );
}
