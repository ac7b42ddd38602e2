import { issueFlag, shownIssues, type ReceiptView } from '@receipts/common';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReceiptChecks } from './receipt-checks.js';
import { ReceiptDetailsView } from './receipt-details-view.js';

const receipt = (fields: Partial<ReceiptView>): ReceiptView => ({
  id: '00000000-0000-4000-8000-000000000001',
  category: 'grocery',
  quality: 0.9,
  items: [],
  rawText: '',
  issues: [],
  flags: [],
  valid: false,
  ...fields,
});

const fieldOf = (label: string) => screen.getByText(label, { selector: 'dt, dt button' }).closest<HTMLElement>('.detail-field')!;

describe('receipt details: issues placed by their code', () => {
  afterEach(cleanup);

  it('shows each issue beside the field it is about, and every flag in the checks to accept', () => {
    const r = receipt({
      merchantName: 'Corner Shop',
      date: '2019-01-01',
      subtotal: 10,
      tax: 6,
      total: 12,
      ...shownIssues([issueFlag('totalMismatch', { total: '12.00', calculated: '16.00' }), issueFlag('dateOutOfRange'), issueFlag('suspiciousTaxRate', { rate: '60' })]),
    });
    render(<ReceiptDetailsView receipt={r} checks={<ReceiptChecks receipt={r} busy={false} onAccept={() => undefined} />} />);
    expect(within(fieldOf('Total')).getByRole('note').textContent).toBe('⚠ Total mismatch: 12.00 vs calculated 16.00');
    expect(within(fieldOf('Date')).getByRole('note').textContent).toBe('⚠ Date out of reasonable range');
    expect(within(fieldOf('Tax')).getByRole('note').textContent).toBe('⚠ Suspicious tax rate: 60%');
    // A mismatch concerns the subtotal too, but is shown once, beside the total.
    expect(within(fieldOf('Subtotal')).queryByRole('note')).toBeNull();
    expect(fieldOf('Total').className).toContain('detail-field-issue');
    expect(within(screen.getByRole('list', { name: 'Flags to review' })).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Accept: Total mismatch: 12.00 vs calculated 16.00',
      'Accept: Date out of reasonable range',
      'Accept: Suspicious tax rate: 60%',
    ]);
  });

  it('lists missing key fields and low quality among the flags, beside no field', () => {
    const r = receipt({ quality: 0.4, ...shownIssues([issueFlag('missingKeyFields')]) });
    render(<ReceiptDetailsView receipt={r} checks={<ReceiptChecks receipt={r} busy={false} />} />);
    expect(within(screen.getByRole('list', { name: 'Flags to review' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '⚠ Missing all key fields (merchant, total, and date)',
      '⚠ Quality below 60%',
    ]);
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('accepting flags', () => {
  afterEach(cleanup);

  it('offers Accept for an open flag and Undo for an accepted one, with when it was accepted', () => {
    const accept = vi.fn();
    const reopen = vi.fn();
    const r = receipt({
      date: '2019-01-01',
      ...shownIssues([issueFlag('dateOutOfRange'), issueFlag('largeTotal')]),
      acceptedIssues: [{ issue: 'Date out of reasonable range', userId: 'u1', at: '2026-01-02T10:00:00.000Z' }],
    });
    render(<ReceiptChecks receipt={r} busy={false} onAccept={accept} onReopen={reopen} />);
    expect(screen.getByText(/Needs review/).textContent).toContain('1 open flag');
    fireEvent.click(screen.getByRole('button', { name: 'Accept: Unusually large total amount' }));
    expect(accept).toHaveBeenCalledWith('Unusually large total amount');
    fireEvent.click(screen.getByRole('button', { name: 'Undo accepting: Date out of reasonable range' }));
    expect(reopen).toHaveBeenCalledWith('Date out of reasonable range');
    expect(screen.getByText(/accepted Jan 2, 2026/)).toBeTruthy();
  });

  it('shows a field whose flag a person accepted as checked, not with the warning', () => {
    const r = receipt({
      date: '2019-01-01',
      total: 20000,
      ...shownIssues([issueFlag('dateOutOfRange'), issueFlag('largeTotal')]),
      acceptedIssues: [{ issue: 'Date out of reasonable range', userId: 'u1', at: '2026-01-02T10:00:00.000Z' }],
    });
    render(<ReceiptDetailsView receipt={r} />);
    expect(within(fieldOf('Date')).getByRole('note').textContent).toBe('✓ Checked by you');
    expect(fieldOf('Date').className).not.toContain('detail-field-issue');
    expect(within(fieldOf('Total')).getByRole('note').textContent).toBe('⚠ Unusually large total amount');
  });

  it('says a receipt whose every flag was accepted is ready for export', () => {
    const r = receipt({ valid: true, ...shownIssues([issueFlag('dateOutOfRange')]), acceptedIssues: [{ issue: 'Date out of reasonable range', userId: null, at: '2026-01-02T10:00:00.000Z' }] });
    render(<ReceiptChecks receipt={r} busy={false} />);
    expect(screen.getByText(/Ready for export: every flag was accepted/)).toBeTruthy();
  });
});

describe('where a field was read', () => {
  afterEach(cleanup);

  it('makes a field with a known line a button that shows it, and leaves the others plain', () => {
    const show = vi.fn();
    render(
      <ReceiptDetailsView
        receipt={receipt({ merchantName: 'Corner Shop', total: 12, items: [{ description: 'Nails', amount: 12 }] })}
        locator={{ has: (t) => ('field' in t ? t.field === 'total' : t.item === 0), active: { field: 'total' }, show }}
      />,
    );
    const total = screen.getByRole('button', { name: 'Show Total on the receipt' });
    expect(total.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(total);
    expect(show).toHaveBeenCalledWith({ field: 'total' });
    fireEvent.click(screen.getByRole('button', { name: 'Show item 1 on the receipt' }));
    expect(show).toHaveBeenCalledWith({ item: 0, part: 'description' });
    expect(screen.queryByRole('button', { name: 'Show Merchant on the receipt' })).toBeNull();
  });
});

describe('items that do not add up, and tax by rate', () => {
  afterEach(cleanup);

  it('notes items that do not add up beside the items, not among the flags that keep the receipt from export', () => {
    const r = receipt({
      merchantName: 'Corner Shop',
      total: 9.54,
      subtotal: 9,
      tax: 0.54,
      items: [{ description: 'Nasi lemak', amount: 4.5 }],
      ...shownIssues([issueFlag('itemsDontAddUp', { sum: '4.50', expected: '9.00' })]),
      valid: true,
    });
    render(<ReceiptDetailsView receipt={r} checks={<ReceiptChecks receipt={r} busy={false} onAccept={() => undefined} />} />);
    const items = screen.getByRole('heading', { name: /Line items/ }).closest('section')!;
    expect(within(items).getByRole('note').textContent).toBe('⚠ Items add up to 4.50, not 9.00');
    expect(screen.queryByRole('list', { name: 'Flags to review' })).toBeNull();
    expect(screen.getByText(/^Ready for export/)).toBeTruthy();
  });

  it('shows the tax per rate as the receipt prints it, and no section where it prints none', () => {
    const r = receipt({
      currency: 'EUR',
      tax: 0.94,
      total: 13.05,
      taxRates: [
        { rate: 19, net: 0.75, tax: 0.14, gross: 0.89 },
        { rate: 7, net: 11.36, tax: 0.8, gross: 12.16 },
      ],
    });
    render(<ReceiptDetailsView receipt={r} />);
    const table = screen.getByRole('heading', { name: 'Tax by rate' }).closest('section')!;
    expect(within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      [],
      ['19 %', '€0.75', '€0.14', '€0.89'],
      ['7 %', '€11.36', '€0.80', '€12.16'],
    ]);
    cleanup();
    render(<ReceiptDetailsView receipt={receipt({ tax: 1, total: 10 })} />);
    expect(screen.queryByRole('heading', { name: 'Tax by rate' })).toBeNull();
  });
});
