import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../receipt.schema.js';
import { ACCOUNTING_PRESETS, formatDay } from './accounting-presets.js';

const receipt = (over: Partial<ReceiptView> = {}): ReceiptView => ({
  id: '00000000-0000-4000-8000-000000000001',
  merchantName: 'SRI BINTANG HARDWARE',
  date: '2017-09-21',
  total: 10.4,
  category: 'retail',
  quality: 0.9,
  items: [],
  rawText: '',
  issues: [],
  flags: [],
  valid: true,
  ...over,
});

describe('formatDay', () => {
  it.each([
    ['2024-02-29', 'MM/DD/YYYY', '02/29/2024'],
    ['2024-02-29', 'DD/MM/YYYY', '29/02/2024'],
    ['2024-02-29', 'YYYY-MM-DD', '2024-02-29'],
    ['2023-02-29', 'MM/DD/YYYY', null],
    ['21/09/2017', 'MM/DD/YYYY', null],
    [undefined, 'DD/MM/YYYY', null],
  ] as const)('%s as %s → %s', (day, format, text) => {
    expect(formatDay(day, format)).toBe(text);
  });
});

describe('QuickBooks preset', () => {
  const { quickbooks } = ACCOUNTING_PRESETS;
  it('writes date, description and a negative amount', () => {
    expect(quickbooks.columns).toEqual(['Date', 'Description', 'Amount']);
    expect(quickbooks.line({ filename: 'a.jpg', receipt: receipt({ receiptNumber: 'CS00012' }) }, 'MM/DD/YYYY')).toEqual([
      '09/21/2017',
      'SRI BINTANG HARDWARE #CS00012',
      '-10.40',
    ]);
    expect(quickbooks.line({ filename: 'a.jpg', receipt: receipt({ merchantName: undefined, currency: 'JPY', total: 1200 }) }, 'DD/MM/YYYY')).toEqual([
      '21/09/2017',
      'Receipt',
      '-1200',
    ]);
  });

  it('leaves out receipts without a real date or a total', () => {
    expect(quickbooks.line({ filename: null, receipt: receipt({ total: null }) }, 'MM/DD/YYYY')).toBeNull();
    expect(quickbooks.line({ filename: null, receipt: receipt({ date: undefined }) }, 'MM/DD/YYYY')).toBeNull();
  });
});

describe('Xero preset', () => {
  it('fills the statement template columns', () => {
    const line = ACCOUNTING_PRESETS.xero.line(
      { filename: 'b.pdf', receipt: receipt({ receiptNumber: 'R-9', paymentMethod: 'cash', category: 'restaurant' }) },
      'DD/MM/YYYY',
    );
    expect(ACCOUNTING_PRESETS.xero.columns).toEqual(['*Date', '*Amount', 'Payee', 'Description', 'Reference', 'Cheque Number']);
    expect(line).toEqual(['21/09/2017', '-10.40', 'SRI BINTANG HARDWARE', 'restaurant receipt, paid by cash, b.pdf', 'R-9', null]);
  });
});
