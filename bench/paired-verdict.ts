// What a benchmark's repeated measurements say about a target. On a shared machine one run's figure
// swings by a tenth or more: five service/bare pairs measured 0.87–1.05 where nine measured
// 0.95–1.11. A median alone then says "met" in one run and "NOT met" in the next. So a verdict comes
// with the median's distribution-free confidence interval (order statistics, the sign test), and
// says "not decided" while that interval still spans the target.

/** The smallest confidence an interval must have to decide: 90 %. Five runs can reach it, four cannot. */
export const MIN_CONFIDENCE = 0.9;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
}

/** Each pair's ratio a[i] / b[i] (the two sides of one run, measured under the same load). */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired sides of different lengths: ${a.length} and ${b.length}`);
  return a.map((x, i) => x / b[i]!);
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function halfBinomialCdf(n: number, k: number): number {
  let term = 1; // C(n, 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}

export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** The probability that the interval holds the true median (exact for any continuous distribution). */
  confidence: number;
}

/**
 * The narrowest interval [x(k), x(n+1−k)] of the sorted values holding the median with at least
 * `minConfidence`, or the widest one, [min, max], when too few values reach that.
 */
export function medianInterval(values: readonly number[], minConfidence = MIN_CONFIDENCE): MedianInterval {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) throw new Error('median interval of no values');
  const confidenceOf = (k: number) => 1 - 2 * halfBinomialCdf(n, k - 1);
  let k = 1;
  while (k + 1 <= Math.floor((n + 1) / 2) && confidenceOf(k + 1) >= minConfidence) k++;
  return { median: median(sorted), low: sorted[k - 1]!, high: sorted[n - k]!, confidence: confidenceOf(k) };
}

export type Verdict = 'met' | 'NOT met' | 'not decided';

/**
 * Whether the median of `values` meets `target` (at most or at least): met or NOT met only when the
 * whole interval is on one side of it, with at least MIN_CONFIDENCE.
 */
export function verdictOf(values: readonly number[], target: { atMost: number } | { atLeast: number }): MedianInterval & { verdict: Verdict } {
  const interval = medianInterval(values);
  const good = (x: number) => ('atMost' in target ? x <= target.atMost : x >= target.atLeast);
  const [worst, best] = 'atMost' in target ? [interval.high, interval.low] : [interval.low, interval.high];
  const verdict: Verdict = interval.confidence < MIN_CONFIDENCE ? 'not decided' : good(worst) ? 'met' : good(best) ? 'not decided' : 'NOT met';
  return { ...interval, verdict };
}

/** "0.992 (target ≥ 0.950: met; 96 % interval of the median 0.963–1.082, 9 runs)", figures as `format` writes them. */
export function describeVerdict(
  values: readonly number[],
  target: { atMost: number } | { atLeast: number },
  format: (x: number) => string,
  /** What one value is the figure of. */
  runs = 'runs',
): string {
  const v = verdictOf(values, target);
  const bound = 'atMost' in target ? `≤ ${format(target.atMost)}` : `≥ ${format(target.atLeast)}`;
  const count = values.length === 1 ? `1 ${runs.replace(/s$/, '')}` : `${values.length} ${runs}`;
  const interval = `${Math.floor(v.confidence * 100)} % interval of the median ${format(v.low)}–${format(v.high)}, ${count}`;
  const more = v.verdict === 'not decided' ? '; more runs narrow it' : '';
  return `${format(v.median)} (target ${bound}: ${v.verdict}; ${interval}${more})`;
}
