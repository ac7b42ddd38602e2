/** An error and the errors it wraps (Drizzle wraps the driver's), nearest first, at most five deep. */
export function* errorChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** Whether `err`, or an error it wraps, carries PostgreSQL's SQLSTATE `code`. */
export function hasSqlState(err: unknown, code: string): boolean {
  for (const e of errorChain(err)) if ((e as { code?: unknown }).code === code) return true;
  return false;
}
