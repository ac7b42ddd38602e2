import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportUrl } from '../lib/export-api.js';
import { renderAt } from '../test-support.js';
import { ExportControls } from './export-controls.js';

const options = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

describe('export controls', () => {
  let convertible: string[];
  beforeEach(() => {
    convertible = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/config'
          ? Response.json({ analyticsMeasurementId: null, engines: ['local'], convertibleCurrencies: convertible })
          : Response.json({ error: 'NOT_FOUND', message: 'Not found' }, { status: 404 }),
      ),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("offers each layout's own file and the export pack", () => {
    renderAt(<ExportControls />);
    const layout = screen.getByLabelText('Layout');
    const format = screen.getByLabelText('Format');
    expect(options(layout)).toEqual(['Excel (all fields)', 'QuickBooks', 'Xero', 'YNAB', 'Firefly III', 'OFX bank statement', 'QIF (Quicken)', 'DATEV Buchungsstapel']);
    expect(options(format)).toEqual(['Excel (.xlsx)', 'CSV', 'Export pack (.zip): workbook, file and originals']);

    fireEvent.change(layout, { target: { value: 'ofx' } });
    expect(options(format)).toEqual(['OFX (.ofx)', 'Export pack (.zip): workbook, file and originals']);
    expect((format as HTMLSelectElement).value).toBe('ofx');

    // The pack stays chosen from one layout to the next.
    fireEvent.change(format, { target: { value: 'zip' } });
    fireEvent.change(layout, { target: { value: 'datev' } });
    expect((format as HTMLSelectElement).value).toBe('zip');
    expect(screen.queryByRole('link', { name: /Firefly III importer configuration/ })).toBeNull();

    fireEvent.change(layout, { target: { value: 'firefly' } });
    fireEvent.change(format, { target: { value: 'csv' } });
    expect(screen.getByRole('link', { name: 'Firefly III importer configuration (.json)' }).getAttribute('href')).toBe('/api/export/firefly-config');
  });

  it('offers the totals in a home currency where the server has a rates file, for the workbook and the pack only', async () => {
    convertible = ['EUR', 'GBP', 'USD'];
    renderAt(<ExportControls />);
    const also = await screen.findByLabelText('Also in');
    expect(options(also)).toEqual(['No conversion', 'EUR at the ECB reference rate', 'GBP at the ECB reference rate', 'USD at the ECB reference rate']);
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'csv' } });
    expect(screen.queryByLabelText('Also in')).toBeNull();
    expect(exportUrl({ format: 'xlsx', preset: 'generic', convertTo: 'GBP' })).toBe('/api/export?format=xlsx&preset=generic&convertTo=GBP');
  });

  it('offers no conversion where the server has no rates file', async () => {
    renderAt(<ExportControls />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByLabelText('Also in')).toBeNull();
  });

  it('exports a selection by its ids, everything else by the library filters', () => {
    expect(exportUrl({ format: 'zip', preset: 'xero', filter: { from: '2024-03-01', to: '2024-03-31', q: '', currency: 'GBP' } })).toBe(
      '/api/export?format=zip&preset=xero&from=2024-03-01&to=2024-03-31&currency=GBP',
    );
    expect(exportUrl({ format: 'csv', preset: 'datev', ids: ['a', 'b'], filter: { from: '2024-03-01' } })).toBe('/api/export?format=csv&preset=datev&ids=a%2Cb');
  });
});
