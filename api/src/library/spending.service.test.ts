import { issueFlag, spendingQuerySchema, type Spending } from '@receipts/common';
import { ReceiptRepository, type ExtractedReceipt } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber } from '../../../tests/support/accounts.js';
import { extracted, openUploadStack, pngFile as png, type UploadStack } from '../../../tests/support/upload-stack.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { SpendingService } from './spending.service.js';

// Real PostgreSQL, Redis and BullMQ; receipts are stored as a worker would store them, so the
// sums come from the one aggregate query over real rows.
describe('spending service', () => {
  let stack: UploadStack;
  let spending: SpendingService;
  let owner: Owner;
  let other: Owner;

  /** A completed upload of the owner with its receipt, flagged as a duplicate as the worker would. */
  async function stored(who: Owner, fields: Partial<ExtractedReceipt>): Promise<void> {
    const service = new UploadService(stack);
    const { id } = await service.create(who, png());
    await service.stored(id);
    await stack.uploads.claim(id);
    await stack.uploads.complete(id, extracted(fields));
    await stack.duplicates.refreshDuplicateFlags(id);
  }

  const summary = (who: Owner, query: Record<string, string> = {}) => spending.summary(who, spendingQuerySchema.parse(query));
  const currency = (s: Spending, code: string) => s.currencies.find((c) => c.currency === code);
  const thisMonth = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    stack = await openUploadStack();
    spending = new SpendingService(new ReceiptRepository(stack.database.db));
    owner = { userId: (await createSubscriber(stack.database.db)).userId, anonId: null, clientIp: null };
    other = { userId: (await createSubscriber(stack.database.db)).userId, anonId: null, clientIp: null };
    const eur = (merchantName: string | null, date: string | null, category: ExtractedReceipt['category'], total: number | null, more: Partial<ExtractedReceipt> = {}) =>
      stored(owner, { currency: 'EUR', merchantName, date, category, total, ...more });
    await eur('Sunrise Bakery', '2024-01-05', 'grocery', 12.4);
    // Needs review (no tax, say): still money spent, so it counts.
    await eur('Sunrise Bakery', '2024-01-20', 'grocery', 1, { valid: false, issues: [issueFlag('legacy', { text: 'Missing tax' })] });
    await eur('SUNRISE BAKERY.', '2024-03-10', 'grocery', 7.6);
    await eur('Sunrise Bakery', '2024-03-22', 'grocery', 5);
    await eur('Riverside Cafe', '2024-03-15', 'restaurant', 30.25);
    // The same receipt again: flagged as a possible duplicate, not counted twice.
    await eur('Riverside Cafe', '2024-03-15', 'restaurant', 30.25);
    await eur('Harbour Books', '2024-02-01', 'retail', null);
    await eur(null, '2024-02-11', 'other', 3.3);
    await eur('Old Shop', '2023-12-31', 'retail', 100);
    // No date: its month is the upload's.
    await eur('Corner Kiosk', null, 'other', 2);
    await stored(owner, { currency: 'USD', merchantName: 'Shell', date: '2024-02-07', category: 'gas', total: 45 });
    await stored(owner, { currency: 'USD', merchantName: 'shell', date: '2024-03-07', category: 'gas', total: 40.5 });
    await stored(owner, { currency: 'JPY', merchantName: 'Lawson', date: '2024-03-01', category: 'grocery', total: 1200 });
    // Ten merchants in pounds: the eight largest named, the last two one "other" bar.
    for (let n = 1; n <= 10; n += 1) {
      await stored(owner, { currency: 'GBP', merchantName: `Shop ${n}`, date: `2024-06-${String(n).padStart(2, '0')}`, category: 'retail', total: 11 - n });
    }
    // Another account's receipts count nowhere.
    await stored(other, { currency: 'EUR', merchantName: 'Sunrise Bakery', date: '2024-03-02', category: 'grocery', total: 1000 });
    await stored(other, { currency: 'CHF', merchantName: 'Migros', date: '2024-03-02', category: 'grocery', total: 50 });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('sums the owner receipts per currency: every receipt with a total once, flagged ones too, duplicates not', async () => {
    const all = await summary(owner);
    expect(all.notCounted).toBe(2);
    expect(all.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([
      ['GBP', 55, 10],
      ['EUR', 161.55, 8],
      ['USD', 85.5, 2],
      ['JPY', 1200, 1],
    ]);
    const euros = currency(all, 'EUR')!;
    expect(euros.months[0]).toEqual({ month: '2023-12', total: 100, receipts: 1 });
    expect(euros.months.find((m) => m.month === thisMonth)).toEqual({ month: thisMonth, total: 2, receipts: 1 });
    expect(euros.months.reduce((sum, m) => sum + m.receipts, 0)).toBe(8);
    expect(currency(all, 'USD')!.merchants).toEqual([{ merchant: 'Shell', total: 85.5, receipts: 2 }]);
    expect(currency(all, 'CHF')).toBeUndefined();
  });

  it('honours the receipt-date range, month by month, category and merchant', async () => {
    const year = await summary(owner, { from: '2024-01-01', to: '2024-12-31' });
    expect(year.notCounted).toBe(2);
    expect(currency(year, 'EUR')).toEqual({
      currency: 'EUR',
      total: 59.55,
      receipts: 6,
      months: [
        { month: '2024-01', total: 13.4, receipts: 2 },
        { month: '2024-02', total: 3.3, receipts: 1 },
        { month: '2024-03', total: 42.85, receipts: 3 },
      ],
      categories: [
        { category: 'restaurant', total: 30.25, receipts: 1 },
        { category: 'grocery', total: 26, receipts: 4 },
        { category: 'other', total: 3.3, receipts: 1 },
      ],
      // One merchant whatever the spelling, named as most of its receipts spell it; a receipt without a merchant is "other".
      merchants: [
        { merchant: 'Riverside Cafe', total: 30.25, receipts: 1 },
        { merchant: 'Sunrise Bakery', total: 26, receipts: 4 },
        { merchant: null, total: 3.3, receipts: 1 },
      ],
    });
    expect(currency(year, 'USD')!.months).toEqual([
      { month: '2024-02', total: 45, receipts: 1 },
      { month: '2024-03', total: 40.5, receipts: 1 },
    ]);
    const spring = await summary(owner, { from: '2024-02-01', to: '2024-02-29' });
    expect(spring.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([
      ['EUR', 3.3, 1],
      ['USD', 45, 1],
    ]);
  });

  it('names the largest merchants and folds the rest into one "other"', async () => {
    const pounds = currency(await summary(owner, { currency: 'GBP' }), 'GBP')!;
    expect(pounds.merchants.map((m) => [m.merchant, m.total])).toEqual([
      ['Shop 1', 10],
      ['Shop 2', 9],
      ['Shop 3', 8],
      ['Shop 4', 7],
      ['Shop 5', 6],
      ['Shop 6', 5],
      ['Shop 7', 4],
      ['Shop 8', 3],
      [null, 3],
    ]);
    expect(pounds.merchants.at(-1)!.receipts).toBe(2);
  });

  it('takes the library filters: category, search, validity, currency', async () => {
    const groceries = await summary(owner, { category: 'grocery' });
    expect(groceries.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([
      ['EUR', 26, 4],
      ['JPY', 1200, 1],
    ]);
    expect((await summary(owner, { q: 'bakery' })).currencies.map((c) => [c.currency, c.total])).toEqual([['EUR', 26]]);
    expect(currency(await summary(owner, { valid: 'true', from: '2024-01-01' }), 'EUR')!.total).toBe(58.55);
    expect((await summary(owner, { currency: 'usd' })).currencies.map((c) => c.currency)).toEqual(['USD']);
  });

  it('answers an empty summary when nothing matches', async () => {
    expect(await summary(owner, { from: '2030-01-01' })).toEqual({ currencies: [], notCounted: 0 });
    expect(await summary({ userId: null, anonId: crypto.randomUUID(), clientIp: null })).toEqual({ currencies: [], notCounted: 0 });
  });

  it('sums the other account apart', async () => {
    const theirs = await summary(other);
    expect(theirs.currencies.map((c) => [c.currency, c.total])).toEqual([
      ['CHF', 50],
      ['EUR', 1000],
    ]);
  });
});
