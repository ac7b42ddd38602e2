import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaPanel } from './quota-panel.js';

const quota = (used: number, limit: number) => ({
  used,
  limit,
  percentage: Math.round((used / limit) * 100),
  canProcess: used < limit,
  resetDate: '2030-01-02T00:00:00.000Z',
});
const show = (used: number, limit: number, subscribed: boolean) =>
  render(
    <MemoryRouter>
      <QuotaPanel quota={quota(used, limit)} subscribed={subscribed} />
    </MemoryRouter>,
  );

describe('quota panel (spec §4)', () => {
  afterEach(cleanup);

  it.each([
    [3, 5, false, null, 'green'],
    [38, 50, false, null, 'orange'],
    [4, 5, false, 'High Usage Warning', 'orange'],
    [9, 10, false, 'Quota Almost Exhausted', 'red'],
  ])('%d of %d (subscribed %s): warning %s, colour %s', (used, limit, subscribed, warning, colour) => {
    show(used, limit, subscribed);
    expect(screen.queryByTestId('quota-warning')?.querySelector('strong')?.textContent ?? null).toBe(warning);
    expect(screen.getByTestId('quota-percent').dataset.colour).toBe(colour);
  });

  it('offers the upgrade only to non-subscribers, with daily or monthly wording', () => {
    show(9, 10, false);
    expect(screen.getByRole('link', { name: 'Upgrade to Premium' })).toBeTruthy();
    expect(screen.getByText('Resets daily')).toBeTruthy();
    cleanup();
    show(95, 100, true);
    expect(screen.queryByRole('link', { name: 'Upgrade to Premium' })).toBeNull();
    expect(screen.getByText('Next billing')).toBeTruthy();
  });
});
