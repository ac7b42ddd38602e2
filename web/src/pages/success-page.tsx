import { PLANS } from '@receipts/common';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useRefreshAccount } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { planFromParam } from '../lib/subscribe-flow.js';

export function SuccessPage() {
  usePageTitle('Payment Successful');
  const [params] = useSearchParams();
  const plan = planFromParam(params.get('plan'), PLANS);
  const refresh = useRefreshAccount();
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <div className="container page-narrow success-page">
      <div className="card">
        <span className="success-icon" aria-hidden="true">
          ✓
        </span>
        <h1>Payment Successful</h1>
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
