import { PLANS, type SubscriptionView } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useProfile, useRefreshAccount } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePlans } from '../hooks/use-plans.js';
import { accountKeys } from '../lib/account-api.js';
import { planFromParam } from '../lib/subscribe-flow.js';
import './success-page.css';

/** Stripe's webhook activates the plan, often a moment after the payment page sends the browser here. */
const CONFIRM_POLL_MS = 2_000;
const CONFIRM_WAIT_MS = 30_000;

/**
 * Spec §2 Payment Successful, shown only for a payment there is: a signed-in subscriber whose plan
 * is active, or one Stripe just sent back (`redirect_status`) while the plan is being activated.
 * Anyone else — anonymous, or signed in without a payment — goes to /pricing. On a server in
 * billing test mode no payment was taken: the page says "Plan activated" and so.
 */
export function SuccessPage() {
  const { catalogue, settled } = usePlans();
  usePageTitle(catalogue.testMode ? 'Plan activated' : 'Payment Successful');
  const [params] = useSearchParams();
  const { signedIn, loading } = useProfile();
  const refresh = useRefreshAccount();
  const returnedFromPayment = params.get('redirect_status') === 'succeeded' || params.get('redirect_status') === 'processing';
  const [waitedOut, setWaitedOut] = useState(false);
  const subscription = useQuery<SubscriptionView | null>({
    queryKey: accountKeys.subscription,
    enabled: signedIn,
    meta: { silent: true },
    refetchOnMount: 'always',
    refetchInterval: (q) => (returnedFromPayment && !waitedOut && !q.state.data?.isActive ? CONFIRM_POLL_MS : false),
  });
  const active = Boolean(subscription.data?.isActive);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (!returnedFromPayment || active) return;
    const timer = setTimeout(() => setWaitedOut(true), CONFIRM_WAIT_MS);
    return () => clearTimeout(timer);
  }, [returnedFromPayment, active]);

  if (loading || !settled || (signedIn && subscription.isPending)) {
    return (
      <div className="container page-loading" role="status">
        Checking your payment...
      </div>
    );
  }
  if (!signedIn || (!active && !returnedFromPayment)) return <Navigate to="/pricing" replace />;

  if (!active) {
    return (
      <div className="container page-narrow success-page">
        <div className="card" role="status">
          <h1>{waitedOut ? 'Your payment is being confirmed' : 'Confirming your payment...'}</h1>
          <p>
            {waitedOut
              ? 'Your bank has not confirmed the payment yet. Your plan starts as soon as it does; the billing page shows where it stands.'
              : 'This takes a few seconds.'}
          </p>
          <div className="button-row">
            <Link to="/billing" className="btn btn-outline">
              Manage Billing
            </Link>
            <Link to="/contact">Contact us</Link>
          </div>
        </div>
      </div>
    );
  }

  const plan = PLANS.find((p) => p.name === subscription.data!.planName) ?? planFromParam(params.get('plan'), PLANS);
  return (
    <div className="container page-narrow success-page">
      <div className="card">
        <span className="success-icon" aria-hidden="true">
          ✓
        </span>
        <h1>{catalogue.testMode ? 'Plan activated' : 'Payment Successful'}</h1>
        {catalogue.testMode && <p className="notice">Test mode: no payment was taken on this server.</p>}
        {plan ? (
          <>
            <p>
              Welcome to the <strong>{plan.name}</strong> plan: {plan.receiptLimit.toLocaleString('en-US')} receipts a month on the express lane.
            </p>
            <ul className="check-list">
              {plan.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>Your subscription is active.</p>
        )}
        <p className="muted">We sent a confirmation e-mail with your plan details.</p>
        <div className="button-row">
          <Link to="/dashboard" className="btn btn-primary">
            Start Processing Receipts
          </Link>
          <Link to="/billing" className="btn btn-outline">
            Manage Billing
          </Link>
        </div>
        <p className="small">
          Questions? <Link to="/contact">Contact us</Link>.
        </p>
      </div>
    </div>
  );
}
