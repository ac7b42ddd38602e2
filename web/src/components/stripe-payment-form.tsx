import type { Plan } from '@receipts/common';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useMemo, useState, type FormEvent } from 'react';
import { PAYMENT_METHOD_TYPES } from '../hooks/use-plans.js';
import { toast } from '../lib/toast.js';

const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string): Promise<Stripe | null> {
  if (!stripes.has(key)) stripes.set(key, loadStripe(key));
  return stripes.get(key)!;
}

function PaymentForm({ plan }: { plan: Plan }) {
  const stripe = useStripe();
  const elements = useElements();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements) return;
    setSubmitting(true);
    try {
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/success?plan=${encodeURIComponent(plan.name)}` },
      });
      // confirmPayment only returns when it could not redirect.
      if (error) toast({ title: 'Payment Failed', description: error.message ?? 'Your payment was not completed.', variant: 'destructive' });
    } catch {
      toast({ title: 'Payment Error', description: 'An unexpected error occurred. Please try again.', variant: 'destructive' });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <PaymentElement options={{ paymentMethodOrder: [...PAYMENT_METHOD_TYPES] }} />
      <button type="submit" className="btn btn-primary btn-block" disabled={!stripe || !elements || submitting}>
        {submitting ? 'Processing Payment...' : `Pay and subscribe`}
      </button>
    </form>
  );
}

/** Stripe's Payment Element, loaded only when a publishable key is configured. */
export default function StripePaymentForm({ publishableKey, clientSecret, plan }: { publishableKey: string; clientSecret: string; plan: Plan }) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret }}>
      <PaymentForm plan={plan} />
    </Elements>
  );
}
