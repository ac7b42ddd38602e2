import type { ReactNode } from 'react';

export interface TableColumn<Row> {
  header: string;
  /** A header only screen readers read (a column of checkboxes or buttons). */
  hideHeader?: boolean;
  /** Right-aligned, header and cells. */
  numeric?: boolean;
  /** The cell names its row: a `<th scope="row">`. */
  rowHeader?: boolean;
  cellClassName?: string;
  cell: (row: Row) => ReactNode;
}

/** The app's table: one header row of column headers, then a row per item. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  className,
}: {
  columns: ReadonlyArray<TableColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** Classes beside `table`. */
  className?: string;
}) {
  return (
    <table className={className ? `table ${className}` : 'table'}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
              {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row, i)}>
            {columns.map((c) =>
              c.rowHeader ? (
                <th key={c.header} scope="row">
                  {c.cell(row)}
                </th>
              ) : (
                <td key={c.header} className={[c.numeric ? 'num' : '', c.cellClassName ?? ''].filter(Boolean).join(' ') || undefined}>
                  {c.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
