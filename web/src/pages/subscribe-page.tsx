import { formatMoney, USER_MESSAGES } from '@receipts/common';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePlans } from '../hooks/use-plans.js';
import { ApiError } from '../lib/api.js';
import { trackSubscription } from '../lib/analytics.js';
import { createSubscription } from '../lib/billing-api.js';
import { pendingSubscription, subscriptionError } from '../lib/browser-storage.js';
import { loginPathFor, subscribePath } from '../lib/login-redirect.js';
import { checkoutPlan, isAuthError, nextChargeDate } from '../lib/subscribe-flow.js';
import './subscribe-page.css';

const StripePaymentForm = lazy(() => import('../components/stripe-payment-form.js'));

export function SubscribePage() {
  usePageTitle('Subscribe');
  const [params] = useSearchParams();
  const planId = params.get('plan');
  const price = params.get('price');
  const plan = checkoutPlan(planId, price);
  const navigate = useNavigate();
  const { catalogue, loaded } = usePlans();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!plan || !price || started.current) return;
    started.current = true;
    const here = subscribePath(plan.id, price);
    const fail = (message: string) => {
      if (isAuthError(message)) {
        pendingSubscription.set({ planId: plan.id, stripePriceId: price });
        navigate(loginPathFor(here), { replace: true });
        return;
      }
      subscriptionError.set(message);
      navigate('/pricing', { replace: true });
    };
    trackSubscription({ plan: plan.id, value: plan.price });
    createSubscription({ stripePriceId: price, planId: plan.id }).then(
      (reply) => {
        if (reply && 'testMode' in reply) navigate('/pricing?test=success', { replace: true });
        else if (reply?.clientSecret) setClientSecret(reply.clientSecret);
        else fail(USER_MESSAGES.noClientSecret);
      },
      (err: unknown) => fail(err instanceof ApiError ? `${err.message} ${err.userMessage}` : err instanceof Error ? err.message : String(err)),
    );
  }, [plan, price, navigate]);

  if (!plan || !price) return <Navigate to="/pricing" replace />;

  if (!clientSecret) {
    return (
      <div className="container page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <p>Setting up your subscription</p>
      </div>
    );
  }

  const next = nextChargeDate();
  return (
    <div className="container checkout">
      <section className="card" aria-labelledby="summary-title">
        <h1 id="summary-title">{plan.name} plan</h1>
        <ul className="check-list">
          {plan.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
        <dl className="summary-list">
          <div>
            <dt>Billing cycle</dt>
            <dd>Monthly</dd>
          </div>
          <div>
            <dt>Next charge</dt>
            <dd>{next.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })}</dd>
          </div>
          <div className="summary-total">
            <dt>Total today</dt>
            <dd>{formatMoney(plan.price, 'USD')}</dd>
          </div>
        </dl>
      </section>
      <section className="card" aria-labelledby="payment-title">
        <h2 id="payment-title">Payment</h2>
        {loaded && catalogue.publishableKey ? (
          <Suspense fallback={<p className="muted">Loading the payment form...</p>}>
            <StripePaymentForm publishableKey={catalogue.publishableKey} clientSecret={clientSecret} plan={plan} />
          </Suspense>
        ) : loaded ? (
          <p className="error-text" role="alert">
            Card payments are not configured on this server. Please contact support.
          </p>
        ) : (
          <p className="muted">Loading the payment form...</p>
        )}
        <Link to="/pricing" className="back-link">
          ← Back to Pricing
        </Link>
      </section>
    </div>
  );
}
