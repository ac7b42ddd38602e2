/** An upload as the twin rule sees it: when it arrived, and its id to break a tie. */
export interface Twin {
  id: string;
  createdAt: Date;
}

/**
 * Of two uploads of the same receipt, the later twin: the one flagged as a possible duplicate of
 * the other. The later arrival, or at the same instant the greater id, so the two always agree
 * on which is which (the order the duplicate lookup sorts by).
 */
export function laterTwin<T extends Twin>(a: T, b: T): T {
  const at = a.createdAt.getTime() - b.createdAt.getTime();
  if (at !== 0) return at > 0 ? a : b;
  return a.id > b.id ? a : b;
}
