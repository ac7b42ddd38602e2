import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.js';
import { AnalyticsReporter } from './analytics-reporter.js';

const calls = () => (window.dataLayer ?? []).map((args) => Array.from(args as ArrayLike<unknown>));

function renderWith(measurementId: string | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/config'
        ? new Response(JSON.stringify({ analyticsMeasurementId: measurementId, engines: ['local'] }))
        : new Response(JSON.stringify({ error: 'UNAUTHENTICATED', message: 'Authentication required' }), { status: 401 }),
    ),
  );
  render(
    <QueryClientProvider client={createQueryClient(() => undefined)}>
      <MemoryRouter initialEntries={['/']}>
        <AnalyticsReporter />
        <Link to="/pricing">Pricing</Link>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('analytics (spec §1)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends nothing and loads no tag without a measurement id', async () => {
    renderWith(null);
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByText('Pricing'));
    expect(window.dataLayer).toBeUndefined();
    expect(document.querySelector('script[src*="googletagmanager"]')).toBeNull();
  });

  it('with an id: consent defaults, no automatic page view, the path on each route change, the account state', async () => {
    renderWith('G-TEST1234');
    await waitFor(() => expect(calls().some((c) => c[0] === 'event' && c[1] === 'page_view')).toBe(true));
    expect(calls()[0]).toEqual(['consent', 'default', { analytics_storage: 'granted', ad_storage: 'denied' }]);
    expect(calls().find((c) => c[0] === 'config')).toEqual(['config', 'G-TEST1234', { send_page_view: false }]);
    expect(document.querySelector('script[src*="googletagmanager"]')?.getAttribute('src')).toContain('id=G-TEST1234');
    fireEvent.click(screen.getByText('Pricing'));
    await waitFor(() =>
      expect(calls().filter((c) => c[1] === 'page_view').map((c) => (c[2] as { page_path: string }).page_path)).toEqual(['/', '/pricing']),
    );
    await waitFor(() => expect(calls()).toContainEqual(['set', 'user_properties', { account_state: 'anonymous' }]), { timeout: 3000 });
  });
});
