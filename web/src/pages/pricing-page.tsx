import { formatMoney, FREE_DAILY_LIMIT } from '@receipts/common';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useRefreshAccount } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHOD_TYPES, usePlans, type CataloguePlan } from '../hooks/use-plans.js';
import { trackPlanView } from '../lib/analytics.js';
import { pendingSubscription, subscriptionError } from '../lib/browser-storage.js';
import { loginPathFor, subscribePath } from '../lib/login-redirect.js';
import { toast } from '../lib/toast.js';

const SUGGESTED_PLAN = 'business';

const COMPARISON: Array<[string, string, string]> = [
  ['Receipts', `${FREE_DAILY_LIMIT} per day`, '100 to 10,000 per month'],
  ['Processing', 'Standard queue (can take 10+ minutes when busy)', 'Express lane, 2-3 minutes'],
  ['Excel, CSV, QuickBooks and Xero export', 'Yes', 'Yes'],
  ['E-mail notifications', 'No', 'Yes'],
  ['Priority support', 'No', 'Enterprise'],
];

export function PricingPage() {
  usePageTitle('Pricing');
  const { catalogue } = usePlans();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const refresh = useRefreshAccount();
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const plansRef = useRef<HTMLElement>(null);
  const testSuccess = params.get('test') === 'success';

  useEffect(() => {
    const message = subscriptionError.take();
    if (message) toast({ title: 'Subscription Error', description: message, variant: 'destructive' });
  }, []);

  useEffect(() => {
    if (!testSuccess) return;
    void refresh();
    toast({ title: 'Test mode: plan activated', description: 'No payment was taken. Your plan is active for 30 days.' });
  }, [testSuccess, refresh]);

  // The suggested plan's view is reported once, when the plans come into view (spec §2).
  useEffect(() => {
    const el = plansRef.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        trackPlanView(SUGGESTED_PLAN);
        observer.disconnect();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const upgrade = async (plan: CataloguePlan) => {
    if (!plan.stripePriceId) {
      toast({ title: 'Plans are loading', description: 'Please try again in a moment.', variant: 'destructive' });
      return;
    }
    const target = subscribePath(plan.id, plan.stripePriceId);
    setBusyPlan(plan.id);
    try {
      // Only the status matters: is there a session to subscribe with? (spec §4)
      const res = await fetch('/api/user/profile', { credentials: 'include', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      if (res.status === 401) {
        pendingSubscription.set({ planId: plan.id, stripePriceId: plan.stripePriceId });
        navigate(loginPathFor(target));
      } else if (res.ok) {
        navigate(target);
      } else {
        toast({ title: 'Something went wrong. Please try again.', variant: 'destructive' });
      }
    } catch {
      navigate(target);
    } finally {
      setBusyPlan(null);
    }
  };

  return (
    <div className="pricing-page">
      <section className="page-hero">
        <div className="container">
          <h1>Simple monthly plans</h1>
          <p className="hero-lead">Start free with {FREE_DAILY_LIMIT} receipts a day. Upgrade when you need more, and cancel whenever you like.</p>
          {testSuccess && (
            <p className="notice notice-success" role="status" data-testid="test-success">
              Test mode: your plan is active for 30 days and no payment was taken. <Link to="/dashboard">Go to your dashboard</Link>
            </p>
          )}
        </div>
      </section>

      <section className="section" aria-labelledby="compare-title">
        <div className="container">
          <h2 id="compare-title" className="section-title">
            Free versus Premium
          </h2>
          <div className="table-scroll">
            <table className="table compare">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Feature</span>
                  </th>
                  <th scope="col">Free</th>
                  <th scope="col">Premium</th>
                </tr>
              </thead>
              <tbody>
                {COMPARISON.map(([what, free, premium]) => (
                  <tr key={what}>
                    <th scope="row">{what}</th>
                    <td>{free}</td>
                    <td>{premium}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="plans-title" ref={plansRef}>
        <div className="container">
          <h2 id="plans-title" className="section-title">
            Choose your plan
          </h2>
          {catalogue.testMode && (
            <p className="notice" role="note">
              Billing runs in test mode here: choosing a plan activates it for 30 days without payment.
            </p>
          )}
          <div className="plan-grid">
            {catalogue.plans.map((plan) => (
              <article key={plan.id} className={`card plan${plan.popular ? ' plan-popular' : ''}`} aria-labelledby={`plan-${plan.id}`}>
                {plan.popular && <span className="plan-flag">Most popular</span>}
                <h3 id={`plan-${plan.id}`}>{plan.name}</h3>
                <p className="plan-price">
                  {formatMoney(plan.price, 'USD')}
                  <span> / month</span>
                </p>
                <p className="muted">{plan.receiptLimit.toLocaleString('en-US')} receipts per month</p>
                <ul className="check-list">
                  {plan.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                <button
                  type="button"
                  className={`btn btn-block ${plan.popular ? 'btn-primary' : 'btn-outline'}`}
                  disabled={busyPlan !== null}
                  onClick={() => void upgrade(plan)}
                >
                  {busyPlan === plan.id ? 'Checking...' : `Upgrade to ${plan.name}`}
                </button>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="why-title">
        <div className="container">
          <h2 id="why-title" className="section-title">
            Why upgrade?
          </h2>
          <div className="feature-grid">
            <article className="card feature">
              <h3>Express lane</h3>
              <p>Your receipts overtake the free queue, so a batch is done in minutes even at busy times.</p>
            </article>
            <article className="card feature">
              <h3>Room for real volume</h3>
              <p>From 100 to 10,000 receipts a month instead of {FREE_DAILY_LIMIT} a day.</p>
            </article>
            <article className="card feature">
              <h3>Told when it is done</h3>
              <p>E-mail notifications when a batch finishes, so you do not have to keep the page open.</p>
            </article>
          </div>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="pay-title">
        <div className="container">
          <h2 id="pay-title" className="section-title">
            Payment and cancellation
          </h2>
          <ul className="pay-methods">
            {PAYMENT_METHOD_TYPES.map((m) => (
              <li key={m} className="pill">
                {PAYMENT_METHOD_LABELS[m]}
              </li>
            ))}
          </ul>
          <p className="section-lead">
            Payments are handled by Stripe; we never see your card number. Plans renew monthly with no setup fees. Cancel anytime from the billing page:
            your plan keeps working until the end of the month you paid for.
          </p>
        </div>
      </section>

      <section className="section cta" aria-labelledby="pricing-cta">
        <div className="container cta-inner">
          <h2 id="pricing-cta">Not sure yet?</h2>
          <p>Try {FREE_DAILY_LIMIT} receipts for free first; no account needed.</p>
          <div className="button-row">
            <button type="button" className="btn btn-light btn-lg" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}>
              Choose Your Plan
            </button>
            <Link to="/" className="btn btn-outline-light btn-lg">
              Try It Free First
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
