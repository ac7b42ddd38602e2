import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { IntakeAddressCard } from './intake-address-card.js';

/** A server answering /api/intake the way the api does: the address, a new one on POST, none after DELETE. */
function intakeServer(available: boolean) {
  let address: string | null = 'aaaaaaaaaaaaaaaaaaaaaaaa@in.receipts.test';
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push(`${method} ${url}`);
    if (method === 'POST') address = 'bbbbbbbbbbbbbbbbbbbbbbbb@in.receipts.test';
    if (method === 'DELETE') address = null;
    return new Response(JSON.stringify({ available, address: available ? address : null }), { status: 200 });
  });
  return calls;
}

describe('intake address card', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows nothing where the server receives no mail', async () => {
    const calls = intakeServer(false);
    renderAt(<IntakeAddressCard confirmed />);
    await waitFor(() => expect(calls).toEqual(['GET /api/intake']));
    expect(screen.queryByText('E-mail Receipts')).toBeNull();
  });

  it('shows the address, makes a new one, and turns it off', async () => {
    const calls = intakeServer(true);
    renderAt(<IntakeAddressCard confirmed />);
    expect((await screen.findByTestId('intake-address')).textContent).toBe('aaaaaaaaaaaaaaaaaaaaaaaa@in.receipts.test');
    fireEvent.click(screen.getByRole('button', { name: 'New Address' }));
    await waitFor(() => expect(screen.getByTestId('intake-address').textContent).toBe('bbbbbbbbbbbbbbbbbbbbbbbb@in.receipts.test'));
    fireEvent.click(screen.getByRole('button', { name: 'Turn Off' }));
    expect(await screen.findByRole('button', { name: 'Get My Address' })).toBeTruthy();
    expect(calls).toEqual(['GET /api/intake', 'POST /api/intake', 'DELETE /api/intake']);
    expect(screen.queryByTestId('intake-unconfirmed')).toBeNull();
  });

  it('says mail waits for the address to be confirmed, before anyone sends any', async () => {
    intakeServer(true);
    renderAt(<IntakeAddressCard confirmed={false} />);
    expect((await screen.findByTestId('intake-unconfirmed')).textContent).toContain('once your e-mail address is confirmed');
    expect(screen.getByTestId('intake-address')).toBeTruthy();
  });
});
