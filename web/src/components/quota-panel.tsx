import type { QuotaView } from '@receipts/common';
import { Link } from 'react-router-dom';
import { quotaColour, quotaWarning } from '../lib/quota-levels.js';
import './quota-panel.css';

const dateText = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/** Spec §4 quota panel: percentage in its colour, reset or billing date, remaining, warnings from 80 %. */
export function QuotaPanel({ quota, subscribed }: { quota: QuotaView; subscribed: boolean }) {
  const warning = quotaWarning(quota.percentage);
  const colour = quotaColour(quota.percentage);
  const remaining = Math.max(0, quota.limit - quota.used);
  return (
    <section className="card quota-panel" aria-labelledby="quota-title">
      <h2 id="quota-title">{subscribed ? 'Monthly quota' : 'Daily quota'}</h2>
      <div className="quota-figure">
        <span className={`quota-percent text-${colour}`} data-testid="quota-percent" data-colour={colour}>
          {quota.percentage}%
        </span>
        <span className="muted">
          {quota.used} of {quota.limit} receipts used
        </span>
      </div>
      <div className="progress progress-lg" role="progressbar" aria-label="Quota used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={quota.percentage}>
        <div className={`progress-fill fill-${colour}`} style={{ width: `${Math.min(100, quota.percentage)}%` }} />
      </div>
      <dl className="summary-list">
        <div>
          <dt>{subscribed ? 'Next billing' : 'Resets daily'}</dt>
          <dd>{dateText(quota.resetDate)}</dd>
        </div>
        <div>
          <dt>Remaining</dt>
          <dd>{remaining}</dd>
        </div>
      </dl>
      {warning && (
        <div className={`warning warning-${warning.level}`} role="alert" data-testid="quota-warning">
          <strong>{warning.title}</strong>
          <p>
            {warning.level === 'critical'
              ? `Only ${remaining} receipt${remaining === 1 ? '' : 's'} left ${subscribed ? 'this billing period' : 'today'}.`
              : `You have used ${quota.percentage}% of your ${subscribed ? 'monthly' : 'daily'} quota.`}
          </p>
          {!subscribed && (
            <Link to="/pricing" className="btn btn-primary btn-sm">
              Upgrade to Premium
            </Link>
          )}
        </div>
      )}
    </section>
  );
}
