import type { QuotaView } from '@receipts/common';
import { quotaColour } from '../lib/quota-levels.js';
import './quota-badge.css';

export function QuotaBadge({ quota, monthly }: { quota: QuotaView; monthly: boolean }) {
  const remaining = Math.max(0, quota.limit - quota.used);
  return (
    <span className={`quota-badge quota-${quotaColour(quota.percentage)}`} role="status" aria-live="polite" data-testid="quota-badge">
      {quota.used}/{quota.limit} used {monthly ? 'this month' : 'today'} · {remaining} left
    </span>
  );
}
