/**
 * Levenshtein distance: the single-character insertions, deletions and substitutions from `a`
 * to `b`. Past `limit` the exact count does not matter: the answer is then just above it.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
      best = Math.min(best, row[j]!);
    }
    // Every later row is at least this row's smallest value.
    if (best > limit) return limit + 1;
  }
  return row[b.length]!;
}
