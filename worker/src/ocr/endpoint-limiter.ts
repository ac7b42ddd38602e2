/**
 * At most `limit` tasks at once; the rest wait in order. A waiting task whose signal fires leaves
 * the line at once (a cancelled upload must not hold a place in front of the others).
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    /** Told the number waiting whenever it changes (a gauge). */
    private readonly onQueue: (queued: number) => void = () => undefined,
  ) {}

  /** Tasks waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        this.onQueue(this.waiting.length);
        next();
      } else this.active--;
    }
  }

  private acquire(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        this.onQueue(this.waiting.length);
        reject(signal.reason);
      };
      // The slot passes straight from the task that ends to this one: `active` stays the same.
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
      this.onQueue(this.waiting.length);
    });
  }
}

const perEndpoint = new Map<string, ConcurrencyLimiter>();

/**
 * The one limiter of an endpoint in this process, so the main engine, the second opinion and a
 * re-extraction asking for the same server share its `limit`.
 */
export function endpointLimiter(endpoint: string, limit: number, onQueue?: (queued: number) => void): ConcurrencyLimiter {
  let limiter = perEndpoint.get(endpoint);
  if (!limiter) {
    limiter = new ConcurrencyLimiter(limit, onQueue);
    perEndpoint.set(endpoint, limiter);
  }
  return limiter;
}
