import { EXPORT_ERRORS, exportRequestSchema } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi } from '../../../tests/support/route-api.js';

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
