import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SIGNATURE_HEADER,
  webhookCreateSchema,
  type WebhookDeliveryStatus,
  type WebhookDeliveryView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
} from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFormSubmit } from '../../hooks/use-form-submit.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { createWebhook, deleteWebhook, redeliverWebhook, testWebhook, updateWebhook, webhookKeys, type DeliveryList, type EndpointList } from '../../lib/webhooks-api.js';
import { DataTable, type TableColumn } from '../data-table.js';
import { TextField } from '../form-fields.js';
import { ShownOnceNotice } from './shown-once-notice.js';

const STATUS_TAGS: Record<WebhookDeliveryStatus, [string, string]> = {
  pending: ['Sending', 'tag-info'],
  retrying: ['Retrying', 'tag-warn'],
  delivered: ['Delivered', 'tag-ok'],
  failed: ['Failed', 'tag-warn'],
};
const EVENT_NAMES: Record<string, string> = { ...WEBHOOK_EVENT_LABELS, 'webhook.ping': 'Test' };
const when = (iso: string) => new Date(iso).toLocaleString();
const failed = (title: string) => (err: unknown) => toast({ title, description: messageOf(err, 'Please try again.'), variant: 'destructive' });

/** The endpoint's latest deliveries, each with its answer and a Redeliver button; read again every few seconds while one is still on its way. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpointView }) {
  const client = useQueryClient();
  const key = webhookKeys.deliveries(endpoint.id);
  const log = useQuery<DeliveryList>({
    queryKey: key,
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 3000 : false),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => redeliverWebhook(endpoint.id, deliveryId),
    onSuccess: () => {
      toast({ title: 'Sending again' });
      void client.invalidateQueries({ queryKey: key });
    },
    onError: failed('Could not send it again'),
  });
  const columns: ReadonlyArray<TableColumn<WebhookDeliveryView>> = [
    { header: 'Event', rowHeader: true, cell: (d) => <span title={d.event}>{EVENT_NAMES[d.event] ?? d.event}</span> },
    {
      header: 'Status',
      cell: (d) => (
        <>
          <span className={`tag ${STATUS_TAGS[d.status][1]}`}>{STATUS_TAGS[d.status][0]}</span>
          {d.lastError && <span className="muted small webhook-error"> {d.lastError}</span>}
        </>
      ),
    },
    { header: 'HTTP', numeric: true, cell: (d) => d.lastHttpStatus ?? '—' },
    { header: 'Time', numeric: true, cell: (d) => (d.responseTimeMs === null ? '—' : `${d.responseTimeMs} ms`) },
    { header: 'Tries', numeric: true, cell: (d) => `${d.attempts}/${d.maxAttempts}` },
    { header: 'When', cell: (d) => when(d.createdAt) },
    {
      header: 'Redeliver',
      hideHeader: true,
      cell: (d) => (
        <button type="button" className="btn btn-ghost btn-sm" disabled={redeliver.isPending} onClick={() => redeliver.mutate(d.id)} aria-label={`Redeliver the ${d.event} of ${when(d.createdAt)}`}>
          Redeliver
        </button>
      ),
    },
  ];
  if (log.isError) {
    return (
      <p className="error-text" role="alert">
        {messageOf(log.error, 'The deliveries could not be loaded.')}
      </p>
    );
  }
  const rows = log.data?.deliveries ?? [];
  if (rows.length === 0) return <p className="muted small">{log.isPending ? 'Loading...' : 'Nothing sent yet.'}</p>;
  return (
    <div className="table-scroll">
      <DataTable columns={columns} rows={rows} rowKey={(d) => d.id} />
    </div>
  );
}

/** One endpoint: where it points, what it gets, whether it is on (and why not), its log, and its buttons. */
function Endpoint({ endpoint }: { endpoint: WebhookEndpointView }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.endpoints });
  const toggle = useMutation({
    mutationFn: () => updateWebhook(endpoint.id, { enabled: !endpoint.enabled }),
    onSuccess: (changed) => {
      toast({ title: changed.enabled ? 'Endpoint turned on' : 'Endpoint turned off' });
      void refresh();
    },
    onError: failed('Could not change the endpoint'),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(endpoint.id),
    onSuccess: () => {
      toast({ title: 'Endpoint deleted' });
      void refresh();
    },
    onError: failed('Could not delete the endpoint'),
  });
  const test = useMutation({
    mutationFn: () => testWebhook(endpoint.id),
    onSuccess: () => {
      toast({ title: 'Test sent', description: 'It shows in the deliveries below.' });
      setOpen(true);
      void client.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
    },
    onError: failed('Could not send a test'),
  });
  const busy = toggle.isPending || remove.isPending || test.isPending;
  return (
    <li className="webhook-endpoint" aria-label={`Webhook endpoint ${endpoint.url}`}>
      <p className="webhook-url">
        <code>{endpoint.url}</code>
        {endpoint.enabled ? <span className="tag tag-ok">On</span> : <span className="tag tag-warn">Off</span>}
      </p>
      {!endpoint.enabled && endpoint.disabledReason && <p className="muted small">{endpoint.disabledReason}</p>}
      <p className="small">
        {endpoint.events.map((e) => (
          <span key={e} className="tag tag-info" title={EVENT_NAMES[e]}>
            {e}
          </span>
        ))}
      </p>
      <div className="button-row">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => test.mutate()} disabled={busy}>
          Send test
        </button>
        <button type="button" className={endpoint.enabled ? 'btn btn-ghost btn-sm' : 'btn btn-primary btn-sm'} onClick={() => toggle.mutate()} disabled={busy}>
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={busy}
          onClick={() => {
            if (window.confirm(`Delete the endpoint ${endpoint.url} and its deliveries?`)) remove.mutate();
          }}
        >
          Delete
        </button>
      </div>
      {open && <DeliveryLog endpoint={endpoint} />}
    </li>
  );
}

/** The secret of the endpoint just added: shown this once, with a copy button. */
function NewSecret({ created, onDone }: { created: WebhookEndpointCreated; onDone: () => void }) {
  return (
    <ShownOnceNotice
      what="secret"
      value={created.secret}
      testId="webhook-secret"
      className="webhook-secret"
      intro={
        <>
          Signing secret for <code>{created.url}</code>:
        </>
      }
      note={<p className="small">Copy it now: it is not shown again. Your receiver needs it to check each delivery's signature.</p>}
      onDone={onDone}
    />
  );
}

/**
 * Webhooks: the account's endpoints, each receiving the events it chose as signed JSON posts,
 * added here (the secret shown once), turned off and on, deleted, tested, and each with its
 * delivery log and a Redeliver button.
 */
export function WebhooksSection({ confirmed }: { confirmed: boolean }) {
  const client = useQueryClient();
  const endpoints = useQuery<EndpointList>({ queryKey: webhookKeys.endpoints });
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const { errors, pending, onSubmit } = useFormSubmit({
    schema: webhookCreateSchema,
    values: (form) => ({ url: form.get('url'), events: form.getAll('events') }),
    send: async (input) => {
      setCreated(await createWebhook(input));
      (document.getElementById('webhook-form') as HTMLFormElement | null)?.reset();
      void client.invalidateQueries({ queryKey: webhookKeys.endpoints });
    },
    failed: failed('Endpoint not added'),
  });
  const list = endpoints.data?.endpoints ?? [];
  return (
    <section className="card account-section account-wide" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted">
        Have your own system told when a receipt is read, fails, is cancelled or corrected: each event is posted as JSON to your address, signed with your
        endpoint's secret in the <code>{WEBHOOK_SIGNATURE_HEADER}</code> header (<code>t=…,v1=…</code>, HMAC-SHA256 of the timestamp, a dot and the body). A
        delivery that fails is tried again for about a day; an endpoint that fails that long is turned off, and we e-mail you.
      </p>
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      {endpoints.isError ? (
        <p className="error-text" role="alert">
          {messageOf(endpoints.error, 'Your webhooks could not be loaded.')}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{endpoints.isPending ? 'Loading...' : 'No endpoints yet.'}</p>
      ) : (
        <ul className="webhook-endpoints">
          {list.map((e) => (
            <Endpoint key={e.id} endpoint={e} />
          ))}
        </ul>
      )}
      {confirmed ? (
        <form id="webhook-form" onSubmit={onSubmit} noValidate aria-label="Add a webhook endpoint">
          <TextField label="Endpoint URL" name="url" type="url" placeholder="https://example.com/receipts-webhook" error={errors.url} />
          <fieldset className="webhook-events" aria-invalid={Boolean(errors.events)}>
            <legend>Events</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="checkbox-line">
                <input type="checkbox" name="events" value={event} defaultChecked={event === 'receipt.completed'} /> {WEBHOOK_EVENT_LABELS[event]} <code className="small">{event}</code>
              </label>
            ))}
            {errors.events && <p className="field-error">{errors.events}</p>}
          </fieldset>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? 'Adding...' : 'Add endpoint'}
          </button>
        </form>
      ) : (
        <p className="muted" data-testid="webhooks-unconfirmed">
          {WEBHOOK_MESSAGES.confirmBeforeRegistering}
        </p>
      )}
    </section>
  );
}
