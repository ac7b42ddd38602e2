import type { WorkspaceUsage } from '@receipts/common';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemberUsagePanel } from './member-usage-panel.js';

const quota = { used: 30, limit: 100, percentage: 30, canProcess: true, resetDate: '2030-01-02T00:00:00.000Z' };
const ann = { userId: 'a', email: 'ann@example.test', username: 'Ann', role: 'owner' as const, units: 10 };
const gone = { userId: null, email: null, username: null, role: null, units: 3 };
const bo = { userId: 'b', email: 'bo@example.test', username: 'Bo', role: 'member' as const, units: 20 };
const usage = (more: Partial<WorkspaceUsage>): WorkspaceUsage => ({ quota, shared: true, everyone: true, members: [ann, bo], ...more });
const rows = () => [...screen.getByRole('table').querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));

describe('use per member on the dashboard', () => {
  afterEach(cleanup);

  it('shows those who may read reports every member’s share of the plan this billing period', () => {
    render(<MemberUsagePanel usage={usage({})} />);
    expect(screen.getByRole('heading').textContent).toBe('Use per member');
    expect(screen.getByTestId('member-usage-note').textContent).toContain('count toward its 100 a month');
    expect(rows()).toEqual([
      ['AnnOwner · ann@example.test', '10', '10%'],
      ['BoMember · bo@example.test', '20', '20%'],
    ]);
  });

  it('names an account that is gone as a former member', () => {
    render(<MemberUsagePanel usage={usage({ members: [ann, gone] })} />);
    expect(rows()[1]).toEqual(['Former member', '3', '3%']);
  });

  it('shows a member their own use, and no shares where each person has their own free allowance', () => {
    render(<MemberUsagePanel usage={usage({ everyone: false, shared: false, members: [bo] })} />);
    expect(screen.getByRole('heading').textContent).toBe('Your use');
    expect(screen.getByTestId('member-usage-note').textContent).toContain('each person has their own free allowance');
    expect(rows()).toEqual([['Bobo@example.test', '20']]);
  });
});
