import { describe, expect, it } from 'vitest';
import { findTotals } from './totals.rule.js';

const lines = (text: string) => text.trim().split('\n');

describe('findTotals', () => {
  it('reads a GST receipt with a summary table', () => {
    const t = findTotals(
      lines(`
TOTAL QTY: 3
Total Sales (Excluding GST) 37.50
Discount : 0.00
Total GST 2.25
Rounding 0.00
Total Sales (Inclusive of GST) 39.75
CASH : 39.75
Change : 0.00
GST SUMMARY
Total : 37.50 2.25`),
    );
    expect(t).toMatchObject({ total: 39.75, tax: 2.25, discount: 0 });
  });

  it('prefers the adjusted total and agrees with cash minus change', () => {
    const t = findTotals(lines(`Sub-total 5.90\nTotal Sales Incl GST 5:80\nTotal After Adj Incl GST 5.90\nCASH 10.00\nItem Count 1 Change Amt 4.10\nTotal 5.57 0.33`));
    expect(t.total).toBe(5.9);
    expect(t.subtotal).toBe(5.9);
  });

  it('reads "total" however OCR misspells it, in every kind of total line', () => {
    const t = findTotals(lines(`SubTatal: 185.00\nRounding Adj : 0.00\nTatal Inclusive GST: 165.00\nMASTER 185.00`));
    expect(t).toMatchObject({ total: 165, subtotal: null });
    expect(findTotals(lines(`T0TAL 12.50\nCASH 20.00`)).total).toBe(12.5);
    expect(findTotals(lines(`Tota1 Qty 3\nTOTAL 9.90`)).total).toBe(9.9);
  });

  it('recovers from a garbled total through payment and change', () => {
    const t = findTotals(lines(`Sub-Total : 57.00\nCoupon Discount : 17.40\nGrand Total : 39.860\nPayment : 40.00\nChange Due : 00.40`));
    expect(t).toMatchObject({ total: 39.6, subtotal: 57, discount: 17.4 });
  });

  it('takes an amount printed on the line after its label', () => {
    expect(findTotals(lines(`TOTAL\nRM 12.30\nCASH\n20.00\nCHANGE\n7.70`)).total).toBe(12.3);
  });

  it('reads totals with thousands separators and a tip', () => {
    const t = findTotals(lines(`Subtotal 1,200.00\nService Tax 72.00\nTip 50.00\nGrand Total 1,322.00`));
    expect(t).toEqual({ total: 1322, subtotal: 1200, tax: 72, tip: 50, discount: null });
  });

  it('takes the rounded total printed after the rounding line', () => {
    const t = findTotals(lines(`Total (Excluding GST): 67.00\nTotal (Inclusive of GST): 71.02\nRounding Adj: -0.02\nTOTAL: 71.00\nCASH : 71.00`));
    expect(t.total).toBe(71);
  });

  it('keeps a printed total over what the cash and change imply', () => {
    const t = findTotals(lines(`SUBTOTAL 13.78\nTOTAL (GST INCL) 13.78\nCASH 20.00\nROUNDING ADJUSTMENTS 0.02\nCHANGE DUE 6.20`));
    expect(t.total).toBe(13.78);
  });

  it('uses the cash handed over, not the cash line, for change', () => {
    const t = findTotals(lines(`TOTAL 11.00\nCash 71.00\nCash Received 101,00\nChange 30.00`));
    expect(t.total).toBe(71);
  });

  it('falls back to the subtotal when no total is legible', () => {
    expect(findTotals(lines(`2 SubTotal 25.00\nNet Total 25: J`)).total).toBe(25);
  });

  it('finds nothing in text without amounts', () => {
    expect(findTotals(['hello', 'world']).total).toBeNull();
  });
});
