import type { ReceiptView } from '@receipts/common';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReceiptDetailsView } from './receipt-details-view.js';

const receipt = (fields: Partial<ReceiptView>): ReceiptView => ({
  id: '00000000-0000-4000-8000-000000000001',
  category: 'grocery',
  quality: 0.9,
  items: [],
  rawText: '',
  issues: [],
  valid: false,
  ...fields,
});

const fieldOf = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement!;

describe('receipt details: issues placed by their code', () => {
  afterEach(cleanup);

  it('shows each issue beside the field it is about, and the ones about the whole receipt on top', () => {
    render(
      <ReceiptDetailsView
        receipt={receipt({
          merchantName: 'Corner Shop',
          date: '2019-01-01',
          subtotal: 10,
          tax: 6,
          total: 12,
          issues: ['Total mismatch: 12.00 vs calculated 16.00', 'Date out of reasonable range', 'Suspicious tax rate: 60%', 'Quality is low'],
        })}
      />,
    );
    expect(within(fieldOf('Total')).getByRole('note').textContent).toBe('⚠ Total mismatch: 12.00 vs calculated 16.00');
    expect(within(fieldOf('Date')).getByRole('note').textContent).toBe('⚠ Date out of reasonable range');
    expect(within(fieldOf('Tax')).getByRole('note').textContent).toBe('⚠ Suspicious tax rate: 60%');
    // A mismatch concerns the subtotal too, but is shown once, beside the total.
    expect(within(fieldOf('Subtotal')).queryByRole('note')).toBeNull();
    expect(fieldOf('Total').className).toContain('detail-field-issue');
    expect(within(screen.getByRole('list', { name: 'Validation issues' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['⚠ Quality is low']);
  });

  it('lists missing key fields on top, beside no field', () => {
    render(<ReceiptDetailsView receipt={receipt({ issues: ['Missing all key fields (merchant, total, and date)'] })} />);
    expect(screen.getByRole('list', { name: 'Validation issues' }).textContent).toBe('⚠ Missing all key fields (merchant, total, and date)');
    expect(screen.queryByRole('note')).toBeNull();
  });
});
