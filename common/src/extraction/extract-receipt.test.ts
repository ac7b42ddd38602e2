import { describe, expect, it } from 'vitest';
import { receiptRecordSchema, type ReceiptRecord } from '../receipt.schema.js';
import { extractReceipt, extractReceiptWithSources, netInclusiveSubtotal, rawTextPreview, textLines } from './extract-receipt.js';
import { renderIssue } from './issue-codes.rules.js';
import { ISSUE_TEXTS, totalMismatch } from './validation.rules.js';

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
    expect(textLines('| SURIA  CO |\n\n!  TOTAL   5.90 |\n   ')).toEqual(['SURIA CO', 'TOTAL 5.90']);
  });

  it('joins an amount\'s cents wrapped onto a line of their own, and nothing else', () => {
    expect(textLines('Subtotal 312.\n50\nTotal tax 15.\n62\nTable\n12')).toEqual(['Subtotal 312.50', 'Total tax 15.62', 'Table', '12']);
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

describe('extractReceiptWithSources', () => {
  // Blank lines stay in the count: sources index doc.content.split('\n').
  const content = ['', 'Feinkost Albers GmbH', '', 'Hauptstr. 6, 50667 Köln', 'BIRNE 0,89 B', 'LEERGUT EINWEG -0,25 A', 'SUMME EUR 0,64', '', 'Geg. BAR EUR 5,00', 'Rückgeld BAR EUR 4,36', 'MwSt 19% 0,10', 'Datum: 14.01.2026 18:05', 'Bon-Nr.: 4172', 'UID Nr.: DE274019385'].join('\n');

  it('reads a German receipt and says where each field came from', () => {
    const { receipt, sources } = extractReceiptWithSources({ content, documents: [{ fields: {} }] }, { now: new Date('2026-02-01') });
    expect(receipt).toMatchObject({
      merchantName: 'Feinkost Albers GmbH',
      date: '2026-01-14',
      time: '18:05',
      currency: 'EUR',
      total: 0.64,
      tax: 0.1,
      paymentMethod: 'cash',
      receiptNumber: '4172',
      tin: 'DE274019385',
      items: [
        { description: 'BIRNE', amount: 0.89 },
        { description: 'LEERGUT EINWEG', amount: -0.25 },
      ],
      // The one rate printed, on the rest of the total, is the tax.
      taxRates: [{ rate: 19, net: 0.54, tax: 0.1, gross: 0.64 }],
    });
    expect(sources).toEqual({ merchantName: 1, date: 11, time: 11, total: 6, tax: 10, items: [4, 5], receiptNumber: 12, tin: 13, paymentMethod: 8 });
    // The record with a negative item amount is a valid record.
    expect(receiptRecordSchema.safeParse(receipt).success).toBe(true);
  });

  it('keeps no tax rates beside a tax the recognition service gave', () => {
    const { receipt } = extractReceiptWithSources({ content, documents: [{ fields: { TotalTax: { value: 0.12, confidence: 0.9 } } }] });
    expect(receipt.tax).toBe(0.12);
    expect(receipt.taxRates).toBeUndefined();
  });

  it('gives the same record as extractReceipt', () => {
    const doc = { content, documents: [{ fields: {} }] };
    expect(extractReceipt(doc)).toEqual(extractReceiptWithSources(doc).receipt);
  });

  it('takes the user’s currency as the prior and keeps it against a stray symbol', () => {
    const doc = { content: 'CORNER SHOP\nTOTAL 4.58\n¥\n12/03/2026', documents: [{ fields: {} }] };
    expect(extractReceipt(doc, { currencyCode: 'GBP' }).currency).toBe('GBP');
    expect(extractReceipt(doc, { currencyCode: 'GBP' }).date).toBe('2026-03-12');
  });

  it('reads a yen receipt without decimals', () => {
    const r = extractReceipt({ content: 'さくら商事株式会社\n2026年6月20日 15:27\n小計 ¥1,240\n消費税 ¥99\n合計 ¥1,339', documents: [{ fields: {} }] });
    expect(r).toMatchObject({ currency: 'JPY', date: '2026-06-20', subtotal: 1240, tax: 99, total: 1339, merchantName: 'さくら商事株式会社' });
  });

  it('falls back to the items’ sum, unsure, when no total is legible', () => {
    const { receipt, sources } = extractReceiptWithSources({ content: 'CORNER SHOP\nMILK £2.29\nBREAD £1.10\nT0T@L ££#', documents: [{ fields: {} }] });
    expect(receipt.total).toBe(3.39);
    expect(sources.total).toBeUndefined();
    expect(receipt.quality).toBeLessThan(extractReceipt({ content: 'CORNER SHOP\nMILK £2.29\nBREAD £1.10\nTOTAL £3.39', documents: [{ fields: {} }] }).quality);
  });

  it('takes the tax a printed tax line holds unread from the items and the total', () => {
    const text = 'MILL POND GRILL\nDraft Ale 5.20\nBurger 14.50\nSalad 7.80\nSubTotal\nState Tax\nTotal 29.62';
    const { receipt, sources } = extractReceiptWithSources({ content: text, documents: [{ fields: {} }] });
    expect(receipt).toMatchObject({ subtotal: 27.5, tax: 2.12, total: 29.62 });
    expect(sources.tax).toBe(5);
    // No tax line printed: the difference is not called a tax.
    const untaxed = extractReceiptWithSources({ content: text.replace('State Tax\n', ''), documents: [{ fields: {} }] }).receipt;
    expect(untaxed).toMatchObject({ subtotal: null, tax: null, total: 29.62 });
  });

  it('takes a header name the engine read surely, and doubts one it read unsurely', () => {
    // Blank lines count: the merchant's line in `lines` is its place in `content`.
    const texts = ['', 'QUILLBY LANE', '14 Harbour Rd', 'TOTAL 8.40', 'CASH 10.00', 'CHANGE 1.60'];
    const read = (nameConfidence: number) =>
      extractReceiptWithSources({
        content: texts.join('\n'),
        documents: [{ fields: {} }],
        lines: texts.map((text, i) => ({ page: 0, text, confidence: i === 1 ? nameConfidence : 0.99, box: { x: 0.1, y: i / 10, width: 0.5, height: 0.05 } })),
      });
    expect(read(0.97).receipt.merchantName).toBe('QUILLBY LANE');
    expect(read(0.97).doubts.map(renderIssue)).not.toContain(ISSUE_TEXTS.merchantUnconfirmed);
    expect(read(0.55).doubts.map(renderIssue)).toContain(ISSUE_TEXTS.merchantUnconfirmed);
    // Without lines (a plain text), nothing says how surely it was read.
    expect(extractReceiptWithSources({ content: texts.join('\n'), documents: [{ fields: {} }] }).doubts.map(renderIssue)).toContain(ISSUE_TEXTS.merchantUnconfirmed);
  });

  it('takes a total the other reader read the same on its line', () => {
    const texts = ['QUILLBY LANE GROCERS LTD', '14 Harbour Rd', 'TOTAL 18.05', '12/03/2026'];
    const read = (readAgain?: string) =>
      extractReceiptWithSources({
        content: texts.join('\n'),
        documents: [{ fields: {} }],
        lines: texts.map((text, i) => ({ page: 0, text, confidence: 0.95, box: { x: 0.1, y: i / 10, width: 0.5, height: 0.05 }, ...(i === 2 && readAgain !== undefined ? { readAgain } : {}) })),
      }).doubts.map(renderIssue);
    expect(read()).toContain(ISSUE_TEXTS.totalUnconfirmed);
    expect(read('TOTAL 18.05')).not.toContain(ISSUE_TEXTS.totalUnconfirmed);
    // A digit the first reader lost: the amounts differ, the doubt stays.
    expect(read('TOTAL 118.05')).toContain(ISSUE_TEXTS.totalUnconfirmed);
    expect(read('TOTAL | $y')).toContain(ISSUE_TEXTS.totalUnconfirmed);
  });

  it('lowers the quality when the printed sums contradict the total', () => {
    const agree = extractReceipt({ content: 'SHOP LTD\n01/02/2026\nSUBTOTAL 10.00\nTAX 1.00\nTOTAL 11.00', documents: [{ fields: {} }] });
    const disagree = extractReceipt({ content: 'SHOP LTD\n01/02/2026\nSUBTOTAL 10.00\nTAX 1.00\nTOTAL 15.00', documents: [{ fields: {} }] });
    expect(disagree.quality).toBeLessThan(agree.quality);
  });
});

describe('netInclusiveSubtotal', () => {
  const record = (over: Partial<ReceiptRecord>): ReceiptRecord => ({ category: 'other', quality: 1, items: [], rawText: '', ...over });
  it.each([
    ['a subtotal holding the tax (内税) is recorded net of it', { total: 438, subtotal: 438, tax: 32 }, 406],
    ['with a tip beside it', { total: 120, subtotal: 100, tax: 19, tip: 20 }, 81],
    ['a subtotal before tax stays', { total: 110, subtotal: 100, tax: 10 }, 100],
    ['a subtotal that fits neither stays (validation flags it)', { total: 150, subtotal: 100, tax: 10 }, 100],
    ['no tax, nothing to net', { total: 100, subtotal: 100, tax: 0 }, 100],
  ])('%s', (_, fields, subtotal) => {
    const r = record(fields);
    netInclusiveSubtotal(r);
    expect(r.subtotal).toBe(subtotal);
    if (fields.tax > 0) expect(totalMismatch(r) === null).toBe(fields.total !== 150);
  });
});

describe("a service's items are trusted only while they add up", () => {
  const item = (description: string, qty: number, price: number, amount: number) => ({
    fields: { Description: { value: description }, Quantity: { value: qty }, Price: { value: price }, TotalPrice: { value: amount } },
  });
  const reading = (items: ReturnType<typeof item>[]) =>
    extractReceipt({
      content: '',
      documents: [
        {
          fields: {
            MerchantName: { value: 'CAFE ROMA', confidence: 0.9 },
            TransactionDate: { value: '2026-03-14', confidence: 0.9 },
            Subtotal: { value: 4.5, confidence: 0.9 },
            Total: { value: 4.5, confidence: 0.9 },
            Items: { values: items, confidence: 0.9 },
          },
        },
      ],
    });

  it('keeps the quality of items that sum to the subtotal and multiply out', () => {
    expect(reading([item('Espresso', 2, 1.5, 3), item('Cornetto', 1, 1.5, 1.5)]).quality).toBeCloseTo(0.87, 3);
  });

  it.each([
    ['that do not sum to the subtotal or total', [item('Espresso', 2, 1.5, 3), item('Cornetto', 1, 2.5, 2.5)]],
    ['whose quantity times price is not the amount', [item('Espresso', 3, 1.5, 3), item('Cornetto', 1, 1.5, 1.5)]],
  ])('lowers it for items %s', (_, items) => {
    expect(reading(items).quality).toBeCloseTo(0.87 - 0.7 * 0.1 * (0.9 - 0.4), 3);
  });
});
