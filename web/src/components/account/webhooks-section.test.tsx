import { WEBHOOK_MESSAGES, type WebhookDeliveryView, type WebhookEndpointView } from '@receipts/common';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test-support.js';
import { WebhooksSection } from './webhooks-section.js';

const ON: WebhookEndpointView = {
  id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01',
  url: 'https://hooks.example.com/receipts',
  events: ['receipt.completed', 'receipt.failed'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  createdAt: '2026-11-01T10:00:00Z',
};
const OFF: WebhookEndpointView = {
  ...ON,
  id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e02',
  url: 'https://old.example.com/hook',
  enabled: false,
  disabledReason: WEBHOOK_MESSAGES.disabledByFailures('receipt.completed', 'Answered 500.'),
  disabledAt: '2026-11-02T10:00:00Z',
};
const DELIVERY: WebhookDeliveryView = {
  id: '7a1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e03',
  eventId: '8b1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e04',
  event: 'receipt.completed',
  trigger: 'event',
  status: 'failed',
  attempts: 10,
  maxAttempts: 10,
  lastHttpStatus: 500,
  responseTimeMs: 42,
  lastError: 'Answered 500.',
  createdAt: '2026-11-01T11:00:00Z',
  lastAttemptAt: '2026-11-02T11:00:00Z',
  nextAttemptAt: null,
  deliveredAt: null,
};
const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';

describe('webhooks section', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const calls = (method: string, url: string) => fetchMock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method);

  beforeEach(() => {
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      const method = init?.method ?? 'GET';
      if (url === '/api/user/webhooks' && method === 'POST') {
        const { url: target, events } = JSON.parse(String(init!.body)) as { url: string; events: string[] };
        return answer({ ...ON, id: '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e09', url: target, events, secret: SECRET }, 201);
      }
      if (url === '/api/user/webhooks') return answer({ endpoints: [ON, OFF] });
      if (url === `/api/user/webhooks/${OFF.id}/deliveries`) return answer({ deliveries: [DELIVERY] });
      if (url === `/api/user/webhooks/${OFF.id}/deliveries/${DELIVERY.id}/redeliver`) return answer({ ...DELIVERY, id: '9c1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e05', trigger: 'redelivery', status: 'pending' }, 202);
      if (url === `/api/user/webhooks/${OFF.id}` && method === 'PATCH') return answer({ ...OFF, enabled: true, disabledReason: null, disabledAt: null });
      return answer({ error: 'NOT_FOUND', message: 'No such API route' }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks an account whose address is not confirmed to confirm it before adding endpoints', async () => {
    renderAt(<WebhooksSection confirmed={false} />);
    await screen.findByRole('listitem', { name: `Webhook endpoint ${ON.url}` });
    expect(screen.getByTestId('webhooks-unconfirmed').textContent).toBe(WEBHOOK_MESSAGES.confirmBeforeRegistering);
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });

  it('lists each endpoint with its events, and why one is off', async () => {
    renderAt(<WebhooksSection confirmed />);
    const on = await screen.findByRole('listitem', { name: `Webhook endpoint ${ON.url}` });
    expect(within(on).getByText('On')).toBeTruthy();
    expect(within(on).getByText('receipt.failed')).toBeTruthy();
    const off = screen.getByRole('listitem', { name: `Webhook endpoint ${OFF.url}` });
    expect(within(off).getByText('Off')).toBeTruthy();
    expect(within(off).getByText(OFF.disabledReason!)).toBeTruthy();
  });

  it('checks the form before sending it, then shows the new secret once', async () => {
    renderAt(<WebhooksSection confirmed />);
    await screen.findByRole('listitem', { name: `Webhook endpoint ${ON.url}` });
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: 'hooks.example.com' } });
    fireEvent.click(screen.getByLabelText(/A receipt was read/));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Enter the full address, starting with https://.')).toBeTruthy();
    expect(screen.getByText(WEBHOOK_MESSAGES.eventsRequired)).toBeTruthy();
    expect(calls('POST', '/api/user/webhooks')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: 'https://new.example.com/in' } });
    fireEvent.click(screen.getByLabelText(/A receipt was corrected/));
    fireEvent.click(screen.getByLabelText(/An upload was cancelled/));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    const [, init] = calls('POST', '/api/user/webhooks')[0]!;
    // The events in the list's order, whatever order they were ticked in.
    expect(JSON.parse(String(init.body))).toEqual({ url: 'https://new.example.com/in', events: ['upload.cancelled', 'receipt.corrected'] });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('shows an endpoint’s deliveries with their answers, sends one again, and turns the endpoint back on', async () => {
    renderAt(<WebhooksSection confirmed />);
    const off = await screen.findByRole('listitem', { name: `Webhook endpoint ${OFF.url}` });
    fireEvent.click(within(off).getByRole('button', { name: 'Deliveries' }));
    const row = (await within(off).findByText('A receipt was read')).closest('tr')!;
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('500')).toBeTruthy();
    expect(within(row).getByText('42 ms')).toBeTruthy();
    expect(within(row).getByText('10/10')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /^Redeliver/ }));
    await waitFor(() => expect(calls('POST', `/api/user/webhooks/${OFF.id}/deliveries/${DELIVERY.id}/redeliver`)).toHaveLength(1));

    fireEvent.click(within(off).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(calls('PATCH', `/api/user/webhooks/${OFF.id}`)).toHaveLength(1));
    expect(JSON.parse(String(calls('PATCH', `/api/user/webhooks/${OFF.id}`)[0]![1].body))).toEqual({ enabled: true });
  });
});
