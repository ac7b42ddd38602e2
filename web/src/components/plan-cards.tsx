import { formatMoney, type Catalogue, type Plan } from '@receipts/common';
import { useEffect, useRef } from 'react';
import { useUpgrade } from '../hooks/use-upgrade.js';
import { trackPlanView } from '../lib/analytics.js';
import { planAction } from '../lib/plan-choice.js';
import './plan-cards.css';

const SUGGESTED_PLAN = 'business';

/** The four plan cards, each with its Upgrade to {plan} button; a subscriber's own plan marked as theirs. */
export function PlanCards({ catalogue, current }: { catalogue: Catalogue; current: Plan | null }) {
  const { upgrade, busyPlan } = useUpgrade();
  const plansRef = useRef<HTMLElement>(null);

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

  return (
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
          {catalogue.plans.map((plan) => {
            const action = planAction(plan, current);
            const isCurrent = action.kind === 'current';
            return (
              <article
                key={plan.id}
                className={`card plan${plan.popular ? ' plan-popular' : ''}${isCurrent ? ' plan-current' : ''}`}
                aria-labelledby={`plan-${plan.id}`}
                aria-current={isCurrent ? 'true' : undefined}
                data-testid={`plan-${plan.id}`}
              >
                {plan.popular && <span className="plan-flag">Most popular</span>}
                {isCurrent && <span className="plan-current-flag">Current plan</span>}
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
                  className={`btn btn-block ${plan.popular && !isCurrent ? 'btn-primary' : 'btn-outline'}`}
                  disabled={busyPlan !== null || isCurrent}
                  onClick={() => void upgrade(plan)}
                >
                  {busyPlan === plan.id ? 'Checking...' : action.label}
                </button>
              </article>
            );
          })}
        </div>
      </div>
    </section>
  );
}
