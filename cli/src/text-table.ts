/** Rows as a plain text table: a header, a rule, columns padded to their widest cell (numbers to the right). */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, rightAligned: readonly number[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** An amount as the table shows it: two decimals and the currency, or nothing when the receipt has none. */
export function formatMoney(amount: number | null | undefined, currency: string | undefined): string {
  if (amount === null || amount === undefined) return '';
  return `${amount.toFixed(2)} ${currency ?? 'USD'}`;
}
