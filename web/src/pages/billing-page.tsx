import { formatMoney, type BillingOverview } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router-dom';
import { DataTable, type TableColumn } from '../components/data-table.js';
import { useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { accountKeys } from '../lib/account-api.js';
import { messageOf } from '../lib/api.js';
import { billingKeys, cancelSubscription, openBillingPortal } from '../lib/billing-api.js';
import { toast } from '../lib/toast.js';

const dateText = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

const INVOICE_COLUMNS: ReadonlyArray<TableColumn<BillingOverview['invoices'][number]>> = [
  { header: 'Date', cell: (i) => dateText(i.date) },
  { header: 'Amount', cell: (i) => formatMoney(i.amount, i.currency) },
  { header: 'Status', cell: (i) => i.status },
  { header: 'Link', hideHeader: true, cell: (i) => i.url && <a href={i.url}>View</a> },
];

export default function BillingPage() {
  usePageTitle('Billing');
  const { profile, loading } = useProfile();
  const client = useQueryClient();
  // A failure is said in place (a member of a team workspace hears that billing is its owner's).
  const billing = useQuery<BillingOverview | null>({ queryKey: billingKeys.billing, enabled: Boolean(profile), meta: { silent: true } });
  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (data) => {
      client.setQueryData(billingKeys.billing, data);
      void client.invalidateQueries({ queryKey: accountKeys.subscription });
      toast({ title: 'Subscription cancelled', description: 'Your plan stays active until the end of the current period.' });
    },
    onError: (err) => toast({ title: 'Could not cancel', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const portal = useMutation({
    mutationFn: openBillingPortal,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => toast({ title: 'Billing portal unavailable', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });

  if (loading) return <div className="container page-loading">Loading billing...</div>;
  if (!profile) return <Navigate to="/login?redirect=%2Fbilling" replace />;
  const data = billing.data;

  return (
    <div className="container page-narrow">
      <h1>Billing</h1>
      {!data ? (
        <p className="muted">{billing.isError ? messageOf(billing.error, 'Billing details could not be loaded.') : 'Loading billing...'}</p>
      ) : (
        <>
          <section className="card" aria-labelledby="plan-title">
            <h2 id="plan-title">Your plan</h2>
            {data.plan ? (
              <dl className="summary-list">
                <div>
                  <dt>Plan</dt>
                  <dd>
                    {data.plan.name} · {formatMoney(data.plan.price, 'USD')} / month
                  </dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd>{data.cancelAtPeriodEnd ? `Cancelled — ends ${data.currentPeriodEnd ? dateText(data.currentPeriodEnd) : ''}` : data.status}</dd>
                </div>
                <div>
                  <dt>Receipts per month</dt>
                  <dd>{data.plan.receiptLimit.toLocaleString('en-US')}</dd>
                </div>
                {data.nextCharge && (
                  <div>
                    <dt>Next charge</dt>
                    <dd>
                      {formatMoney(data.nextCharge.amount, data.nextCharge.currency)} on {dateText(data.nextCharge.date)}
                    </dd>
                  </div>
                )}
              </dl>
            ) : (
              <p>You are on the free tier.</p>
            )}
            {data.testMode && <p className="notice">Test mode: no payments are taken on this server.</p>}
            <div className="button-row">
              <Link to="/pricing" className="btn btn-outline">
                {data.plan ? 'Change Plan' : 'Upgrade to Premium'}
              </Link>
              {!data.testMode && data.plan && (
                <button type="button" className="btn btn-outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
                  Payment methods and invoices
                </button>
              )}
              {data.plan && !data.cancelAtPeriodEnd && (
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={cancel.isPending}
                  onClick={() => {
                    if (window.confirm('Cancel your subscription at the end of the current period?')) cancel.mutate();
                  }}
                >
                  {cancel.isPending ? 'Cancelling...' : 'Cancel subscription'}
                </button>
              )}
            </div>
          </section>
          <section className="card" aria-labelledby="invoices-title">
            <h2 id="invoices-title">Invoices</h2>
            {data.invoices.length === 0 ? (
              <p className="muted">No invoices yet.</p>
            ) : (
              <div className="table-scroll">
                <DataTable columns={INVOICE_COLUMNS} rows={data.invoices} rowKey={(i) => i.id} />
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}
