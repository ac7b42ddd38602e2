import { describe, expect, it } from 'vitest';
import { extractReceipt, rawTextPreview, textLines } from './extract-receipt.js';

describe('rawTextPreview (spec §9)', () => {
  it.each<[string, string]>([
    ['short', 'short'],
    ['x'.repeat(200), 'x'.repeat(200)],
    ['x'.repeat(201), `${'x'.repeat(200)}...`],
  ])('%#', (text, preview) => {
    expect(rawTextPreview(text)).toBe(preview);
  });
});

describe('textLines', () => {
  it('trims scanner edge marks and drops empty lines', () => {
    expect(textLines('| AEON  CO |\n\n!  TOTAL   5.90 |\n   ')).toEqual(['AEON CO', 'TOTAL 5.90']);
  });
});

describe('extractReceipt', () => {
  const text = 'KEDAI MAKAN SRI MELAKA\n12/03/2026 13:05\nNASI LEMAK 2 x 4.50 9.00\nSUBTOTAL 9.00\nSST 0.54\nTOTAL RM 9.54\nCASH 10.00\nCHANGE 0.46';

  it('reads a plain-text receipt with the text rules', () => {
    const r = extractReceipt({ content: text, documents: [{ confidence: 0.9, fields: {} }] });
    expect(r).toMatchObject({
      merchantName: 'KEDAI MAKAN SRI MELAKA',
      date: '2026-03-12',
      time: '13:05',
      currency: 'MYR',
      subtotal: 9,
      tax: 0.54,
      total: 9.54,
      paymentMethod: 'cash',
      items: [{ description: 'NASI LEMAK', qty: 2, unitPrice: 4.5, amount: 9 }],
    });
    expect(r.quality).toBeGreaterThan(0.6);
  });

  it('prefers the service fields, takes a sure merchant only, and omits USD', () => {
    const r = extractReceipt({
      content: 'SHOP A\nTOTAL 3.00',
      documents: [
        {
          confidence: 0.95,
          fields: {
            MerchantName: { value: 'Shop B', confidence: 0.7 },
            Total: { value: 12.5, confidence: 0.99 },
            TransactionDate: { value: '2026-10-01', confidence: 0.9 },
            CurrencyCode: { value: 'USD' },
          },
        },
      ],
    });
    expect(r.merchantName).toBe('SHOP A');
    expect(r.total).toBe(12.5);
    expect(r.date).toBe('2026-10-01');
    expect(r.currency).toBeUndefined();
  });

  it('turns day/month the US way round for dollar receipts', () => {
    const r = extractReceipt({ content: 'CORNER DELI\n03/12/2026\nTOTAL $4.00', documents: [{ fields: {} }] });
    expect(r.date).toBe('2026-03-12');
  });
});
