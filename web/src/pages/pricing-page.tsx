import { FREE_DAILY_LIMIT, PLANS } from '@receipts/common';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PlanCards } from '../components/plan-cards.js';
import { PlanComparison } from '../components/plan-comparison.js';
import { PricingInfo } from '../components/pricing-info.js';
import { useProfile, useRefreshAccount, useSubscription } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePlans } from '../hooks/use-plans.js';
import { subscriptionError } from '../lib/browser-storage.js';
import { toast } from '../lib/toast.js';

export function PricingPage() {
  usePageTitle('Pricing');
  const { catalogue } = usePlans();
  const [params] = useSearchParams();
  const refresh = useRefreshAccount();
  const testSuccess = params.get('test') === 'success';
  const { signedIn } = useProfile();
  const { subscription } = useSubscription(signedIn);
  const current = subscription?.isActive ? (PLANS.find((p) => p.name === subscription.planName) ?? null) : null;

  useEffect(() => {
    const message = subscriptionError.take();
    if (message) toast({ title: 'Subscription Error', description: message, variant: 'destructive' });
  }, []);

  useEffect(() => {
    if (!testSuccess) return;
    void refresh();
    toast({ title: 'Test mode: plan activated', description: 'No payment was taken. Your plan is active for 30 days.' });
  }, [testSuccess, refresh]);

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
      <PlanComparison />
      <PlanCards catalogue={catalogue} current={current} />
      <PricingInfo />
    </div>
  );
}
