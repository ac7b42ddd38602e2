/** A table's column heads: the label column, then the columns of numbers (right-aligned). */
export function ColumnHeads({ label, numbers }: { label: string; numbers: readonly string[] }) {
  return (
    <thead>
      <tr>
        <th scope="col">{label}</th>
        {numbers.map((n) => (
          <th key={n} scope="col" className="num">
            {n}
          </th>
        ))}
      </tr>
    </thead>
  );
}
