import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { exportUrl } from '../lib/export-api.js';
import { ExportControls } from './export-controls.js';

const options = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

describe('export controls', () => {
  afterEach(cleanup);

  it("offers each layout's own file and the export pack", () => {
    render(<ExportControls />);
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

  it('exports a selection by its ids, everything else by the library filters', () => {
    expect(exportUrl({ format: 'zip', preset: 'xero', filter: { from: '2024-03-01', to: '2024-03-31', q: '', currency: 'GBP' } })).toBe(
      '/api/export?format=zip&preset=xero&from=2024-03-01&to=2024-03-31&currency=GBP',
    );
    expect(exportUrl({ format: 'csv', preset: 'datev', ids: ['a', 'b'], filter: { from: '2024-03-01' } })).toBe('/api/export?format=csv&preset=datev&ids=a%2Cb');
  });
});
