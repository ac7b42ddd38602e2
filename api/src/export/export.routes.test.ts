import { randomUUID } from 'node:crypto';
import { EXPORT_ERRORS, exportRequestSchema, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, IDEMPOTENT_REPLAYED_HEADER } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';

// The export routes over HTTP on the real api and database.
describe('export routes', () => {
  const api = withRouteApi();

  it('exports the caller’s own receipts, by query or by body', async () => {
    const owner = await api.signedIn();
    const id = await api.receipt(owner, { merchantName: 'Corner Shop', date: '2024-05-01', total: 12.5, currency: 'EUR' });
    const byQuery = await owner.get('/api/export?format=csv');
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get('x-export-rows')).toBe('1');
    expect(byQuery.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    const byBody = await owner.post('/api/export', { format: 'csv', ids: [id] });
    expect(byBody.status).toBe(200);
    expect(byBody.headers.get('x-export-rows')).toBe('1');
    // Someone else has nothing to export.
    expect(await api.anonymous().get('/api/export')).toEqual(expect.objectContaining({ status: 400, body: { error: 'NOTHING_TO_EXPORT', message: EXPORT_ERRORS.nothing } }));
  });

  it.each([
    ['GET', '/api/export?format=nope', { format: 'nope' }],
    ['GET', '/api/export?ids=42', { ids: '42' }],
    ['POST', '/api/export', { ids: 5 }],
    ['POST', '/api/export', { ids: [null] }],
    ['POST', '/api/export', { preset: 'nope' }],
  ])('refuses %s %s with %j', async (method, url, input) => {
    expect(await api.anonymous().send(method, url, method === 'POST' ? input : undefined)).toEqual(expect.objectContaining(invalid(exportRequestSchema, input)));
  });

  describe('POST with an Idempotency-Key', () => {
    /** The export's bytes and the headers that describe them. */
    async function exportUnder(caller: Caller, key: string, body: Record<string, unknown>) {
      const res = await caller.visitor.request('/api/export', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: key },
        body: JSON.stringify(body),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const header = (name: string) => res.headers.get(name);
      return { status: res.status, bytes, rows: header('x-export-rows'), file: header('content-disposition'), type: header('content-type'), replayed: header(IDEMPOTENT_REPLAYED_HEADER) };
    }

    it('sends the very same file again for the same body, whatever changed since', async () => {
      const owner = await api.signedIn();
      await api.receipt(owner, { merchantName: 'Corner Shop', date: '2024-05-01', total: 12.5, currency: 'EUR' });
      const key = randomUUID();
      const body = { format: 'zip', name: 'my books' };
      const first = await exportUnder(owner, key, body);
      expect({ status: first.status, rows: first.rows, replayed: first.replayed }).toEqual({ status: 200, rows: '1', replayed: null });
      // A receipt more: exported afresh the file would differ.
      await api.receipt(owner, { merchantName: 'Bakery', date: '2024-05-02', total: 3, currency: 'EUR' });
      expect((await exportUnder(owner, randomUUID(), body)).rows).toBe('2');
      const again = await exportUnder(owner, key, body);
      expect({ ...again, bytes: again.bytes.equals(first.bytes) }).toEqual({ ...first, bytes: true, replayed: 'true' });
    });

    it('refuses another body under the key, and keeps no key whose export failed', async () => {
      const owner = await api.signedIn();
      const key = randomUUID();
      const body = { format: 'csv' };
      expect((await owner.send('POST', '/api/export', body, { [IDEMPOTENCY_KEY_HEADER]: key })).body).toEqual({ error: 'NOTHING_TO_EXPORT', message: EXPORT_ERRORS.nothing });
      await api.receipt(owner, { merchantName: 'Corner Shop', date: '2024-05-01', total: 12.5, currency: 'EUR' });
      expect(await exportUnder(owner, key, body)).toMatchObject({ status: 200, rows: '1', replayed: null });
      expect(await owner.send('POST', '/api/export', { format: 'xlsx' }, { [IDEMPOTENCY_KEY_HEADER]: key })).toMatchObject({
        status: 422,
        body: { error: 'IDEMPOTENCY_KEY_REUSED', message: IDEMPOTENCY_MESSAGES.keyReused },
      });
      // Another owner's same key is another key.
      expect((await api.anonymous().send('POST', '/api/export', body, { [IDEMPOTENCY_KEY_HEADER]: key })).body).toMatchObject({ error: 'NOTHING_TO_EXPORT' });
    });
  });

  it('sends the sample workbook in a currency given as a code', async () => {
    const sample = await api.anonymous().get('/api/export/sample?currency=eur');
    expect(sample.status).toBe(200);
    expect(sample.headers.get('content-type')).toContain('spreadsheetml');
    expect(await api.anonymous().get('/api/export/sample?currency=EURO')).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'VALIDATION_FAILED', message: 'currency must be a three-letter code' } }),
    );
  });

  it('sends the Firefly importer’s configuration for the Firefly file whatever preset is asked', async () => {
    const config = await api.anonymous().get('/api/export/firefly-config?preset=datev');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-disposition')).toBe('attachment; filename="firefly-import-config.json"; filename*=UTF-8\'\'firefly-import-config.json');
    expect(await api.anonymous().get('/api/export/firefly-config?dateFormat=nope')).toEqual(expect.objectContaining(invalid(exportRequestSchema, { dateFormat: 'nope', preset: 'firefly' })));
  });
});
