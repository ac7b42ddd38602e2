import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  form: URLSearchParams;
}

/** A local server answering the Stripe REST calls the api makes, as Stripe shapes them. */
export async function startStripeStandIn() {
  const requests: StripeRequest[] = [];
  let counter = 0;
  const now = Math.floor(Date.now() / 1000);
  const subscription = (id: string, customer: string, price: string, status: string, cancelAtPeriodEnd = false, metadata: Record<string, string> = {}) => ({
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    metadata,
    items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: price, object: 'price' }, current_period_start: now, current_period_end: now + 30 * 86400 }] },
    latest_invoice: { id: `in_${id}`, object: 'invoice', confirmation_secret: { client_secret: `pi_${id}_secret_test`, type: 'payment_intent' } },
  });
  const prices = new Map<string, { customer: string; price: string; metadata: Record<string, string> }>();
  /** The metadata a form sets (`metadata[key]=value`), as Stripe keeps it. */
  const metadataOf = (form: URLSearchParams) => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const named = /^metadata\[(\w+)\]$/.exec(key);
      if (named) metadata[named[1]!] = value;
    }
    return metadata;
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const path = req.url!.split('?')[0]!;
      const form = new URLSearchParams(raw);
      requests.push({ method: req.method!, path, form });
      const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/v1/customers') return send({ id: `cus_${++counter}`, object: 'customer', email: form.get('email') });
      if (path === '/v1/subscriptions') {
        const id = `sub_${++counter}`;
        const entry = { customer: form.get('customer')!, price: form.get('items[0][price]')!, metadata: metadataOf(form) };
        prices.set(id, entry);
        return send(subscription(id, entry.customer, entry.price, 'incomplete', false, entry.metadata));
      }
      const update = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
      if (update) {
        const entry = prices.get(update[1]!)!;
        return send(subscription(update[1]!, entry.customer, entry.price, 'active', form.get('cancel_at_period_end') === 'true', entry.metadata));
      }
      if (path === '/v1/billing_portal/sessions') return send({ id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.test/session/bps_1' });
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: `No such route ${path}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    subscription,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
