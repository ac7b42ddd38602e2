import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, type TableColumn } from './data-table.js';

type Row = { id: string; name: string; amount: number };
const COLUMNS: ReadonlyArray<TableColumn<Row>> = [
  { header: 'Name', rowHeader: true, cell: (r) => r.name },
  { header: 'Amount', numeric: true, cell: (r) => r.amount.toFixed(2) },
  { header: 'Note', cellClassName: 'error-text', cell: (r) => (r.amount < 0 ? 'refund' : '') },
  { header: 'Actions', hideHeader: true, cellClassName: 'row-actions', cell: (r) => <button type="button">Open {r.name}</button> },
];

describe('DataTable', () => {
  afterEach(cleanup);

  it('renders a header row and a row per item, cells in column order', () => {
    render(<DataTable className="sheet" columns={COLUMNS} rows={[{ id: 'a', name: 'Apple', amount: 1.5 }, { id: 'b', name: 'Bread', amount: -2 }]} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table');
    expect(table.className).toBe('table sheet');
    const [head, ...body] = within(table).getAllByRole('row');
    expect(within(head!).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Amount', 'Note', 'Actions']);
    expect(body.map((tr) => [...tr.children].map((cell) => cell.textContent))).toEqual([
      ['Apple', '1.50', '', 'Open Apple'],
      ['Bread', '-2.00', 'refund', 'Open Bread'],
    ]);
  });

  it('names rows by their row header, right-aligns numbers and hides the header of an action column', () => {
    render(<DataTable columns={COLUMNS} rows={[{ id: 'a', name: 'Apple', amount: 1.5 }]} rowKey={(r) => r.id} />);
    expect(screen.getByRole('table').className).toBe('table');
    expect(screen.getByRole('rowheader').textContent).toBe('Apple');
    const amountHeader = screen.getByRole('columnheader', { name: 'Amount' });
    expect(amountHeader.className).toBe('num');
    expect(screen.getByText('1.50').className).toBe('num');
    expect(screen.getByRole('columnheader', { name: 'Actions' }).querySelector('.visually-hidden')?.textContent).toBe('Actions');
    expect(screen.getByRole('button', { name: 'Open Apple' }).parentElement!.className).toBe('row-actions');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('scope')).toBe('col');
  });

  it('renders an empty body for no rows', () => {
    render(<DataTable columns={COLUMNS} rows={[]} rowKey={(r) => r.id} />);
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });
});
