/**
 * Reads `read()` until `done` holds for its value, and returns that value. A read that throws
 * (a service still down, a process still starting) counts as not done yet.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = 30_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().then(
      (v) => ({ v }),
      () => null,
    );
    if (value && done(value.v)) return value.v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Runs `check` (assertions) until it passes, and throws its last failure once `timeoutMs` is
 * over: for what settles a moment later (log lines are written as a response leaves).
 */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
