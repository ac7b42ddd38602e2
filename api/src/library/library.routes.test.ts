import { randomUUID } from 'node:crypto';
import { flagKindDecisionSchema, issueDecisionSchema, issueFlag, receiptListQuerySchema, receiptPatchSchema, reextractRequestSchema, spendingQuerySchema } from '@receipts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';

const badId = { status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } };
const badPage = { status: 400, body: { error: 'BAD_REQUEST', message: 'Not a page number.' } };

// The receipts library and spending routes over HTTP on the real api and database.
describe('library routes (receipt-library.routes.ts, spending.routes.ts)', () => {
  const api = withRouteApi();
  let owner: Caller;
  let receiptId: string;
  const issue = 'Total does not match the items';

  const stored = () => api.receipt(owner, { merchantName: 'Corner Shop', date: '2024-05-01', total: 12.5, currency: 'EUR', issues: [issueFlag('legacy', { text: issue })], valid: false });

  beforeAll(async () => {
    owner = await api.signedIn();
    receiptId = await stored();
  }, 120_000);

  it('lists, shows and corrects a receipt for its owner only', async () => {
    const list = await owner.get<{ items: Array<{ id: string }>; page: number; currencies: string[] }>('/api/receipts?sort=total&order=asc');
    // The service gets the parsed query: its defaults filled in.
    expect(list).toMatchObject({ status: 200, body: { page: 1, currencies: ['EUR'] } });
    expect(list.body.items.map((r) => r.id)).toEqual([receiptId]);
    expect(await owner.get(`/api/receipts/${receiptId}`)).toMatchObject({ status: 200, body: { id: receiptId, merchantName: 'Corner Shop' } });
    expect(await owner.patch(`/api/receipts/${receiptId}`, { merchantName: 'Corner Store' })).toMatchObject({ status: 200, body: { merchantName: 'Corner Store' } });

    const stranger = api.anonymous();
    expect((await stranger.get<{ items: unknown[] }>('/api/receipts')).body.items).toEqual([]);
    expect(await stranger.get(`/api/receipts/${receiptId}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: 'Receipt not found' } });
    expect((await stranger.patch(`/api/receipts/${receiptId}`, { merchantName: 'Mine' })).status).toBe(404);
    expect((await stranger.delete(`/api/receipts/${receiptId}`)).status).toBe(404);
  });

  it('sums the owner’s spending, and refuses a filter the schema does not take', async () => {
    expect(await owner.get('/api/receipts/spending?currency=eur')).toMatchObject({ status: 200 });
    for (const query of [{ currency: 'XX' }, { from: 'yesterday' }] as Array<Record<string, string>>) {
      expect(await owner.get(`/api/receipts/spending?${new URLSearchParams(query)}`)).toEqual(expect.objectContaining(invalid(spendingQuerySchema, query)));
    }
    expect(await owner.get('/api/receipts?sort=nope')).toEqual(expect.objectContaining(invalid(receiptListQuerySchema, { sort: 'nope' })));
  });

  it('refuses a correction the schema does not take, before a malformed id', async () => {
    for (const body of [{}, { total: 'ten' }, { merchantName: 'x', unknown: 1 }]) {
      expect(await owner.patch('/api/receipts/42', body)).toEqual(expect.objectContaining(invalid(receiptPatchSchema, body)));
    }
    expect(await owner.patch('/api/receipts/42', { merchantName: 'x' })).toEqual(expect.objectContaining(badId));
  });

  it('accepts and reopens a flag, refusing a missing one', async () => {
    const flagged = await stored();
    expect(await owner.post('/api/receipts/42/issues/accept', {})).toEqual(expect.objectContaining(invalid(issueDecisionSchema, {})));
    expect(await owner.post('/api/receipts/42/issues/reopen', { issue })).toEqual(expect.objectContaining(badId));
    expect((await owner.post(`/api/receipts/${flagged}/issues/accept`, { issue })).status).toBe(200);
    expect((await owner.post(`/api/receipts/${flagged}/issues/reopen`, { issue })).status).toBe(200);
    expect((await api.anonymous().post(`/api/receipts/${flagged}/issues/accept`, { issue })).status).toBe(404);
    expect(await owner.post('/api/receipts/flags/accept', { kind: '' })).toEqual(expect.objectContaining(invalid(flagKindDecisionSchema, { kind: '' })));
    expect(await owner.post('/api/receipts/flags/accept', { kind: 'total' })).toMatchObject({ status: 200 });
  });

  it('reads a page number before the id, each to a malformed request', async () => {
    expect(await owner.get('/api/receipts/42/pages/x')).toEqual(expect.objectContaining(badPage));
    expect(await owner.get(`/api/receipts/${receiptId}/pages/100`)).toEqual(expect.objectContaining(badPage));
    expect(await owner.get('/api/receipts/42/pages/1')).toEqual(expect.objectContaining(badId));
    expect((await api.anonymous().get(`/api/receipts/${receiptId}/pages/1`)).status).toBe(404);
  });

  it('re-extracts with a known engine only, and deletes', async () => {
    expect(await owner.post(`/api/receipts/${receiptId}/reextract`, { engine: 'nope' })).toEqual(expect.objectContaining(invalid(reextractRequestSchema, { engine: 'nope' })));
    expect(await owner.post('/api/receipts/42/reextract', {})).toEqual(expect.objectContaining(badId));
    expect(await owner.post(`/api/receipts/${receiptId}/reextract`, {})).toMatchObject({ status: 202, body: { receiptId, status: 'queued' } });
    expect(await owner.delete(`/api/receipts/${randomUUID()}`)).toMatchObject({ status: 404 });
    expect(await owner.delete('/api/receipts/42')).toEqual(expect.objectContaining(badId));
  });
});
