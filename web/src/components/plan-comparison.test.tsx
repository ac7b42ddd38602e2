import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { PlanComparison } from './plan-comparison.js';

function serve(times: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (url === '/api/uploads/processing-times' ? Response.json(times) : Response.json({ error: 'NOT_FOUND', message: 'Not found' }, { status: 404 }))),
  );
  renderAt(<PlanComparison />);
}

const processingRow = () => screen.getByRole('rowheader', { name: 'Processing' }).closest('tr')!;

describe('free versus premium', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says how long each lane took over the last day, as measured', async () => {
    serve({
      hours: 24,
      lanes: [
        { lane: 'express', receipts: 40, p50Ms: 7_600, p95Ms: 19_000 },
        { lane: 'standard', receipts: 12, p50Ms: 41_000, p95Ms: 150_000 },
      ],
    });
    await screen.findByText(/typically 8 s/, {}, { timeout: 10_000 });
    expect([...processingRow().querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Standard queue, typically 41 s, 95 % within 3 min (12 receipts in the last 24 h)',
      'Express lane, ahead of the standard queue, typically 8 s, 95 % within 19 s (40 receipts in the last 24 h)',
    ]);
  });

  it('promises no time where too few receipts were read to say', async () => {
    serve({ hours: 24, lanes: [{ lane: 'express', receipts: 2, p50Ms: 7_600, p95Ms: 19_000 }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...processingRow().querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Standard queue', 'Express lane, ahead of the standard queue']);
    expect(processingRow().textContent).not.toMatch(/min|\d s/);
  });
});
