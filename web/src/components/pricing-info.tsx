import { FREE_DAILY_LIMIT } from '@receipts/common';
import { Link } from 'react-router-dom';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHOD_TYPES } from '../hooks/use-plans.js';
import './pricing-info.css';

/** The pricing page's closing sections: why upgrade, payment and cancellation, and the call to action. */
export function PricingInfo() {
  return (
    <>
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
    </>
  );
}
