import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { addThreadMetrics, initMetrics, metrics, metricsAccess, renderMetrics, type ThreadMetrics } from './metrics.js';

const ROLE = 'api+worker';
initMetrics({ role: ROLE });

/** A thread's registry as a thread of this process has it (labelThreadMetrics): the same metric, counted apart. */
function threadRegistry(kept: number): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ role: ROLE });
  new Counter({ name: 'receipts_vlm_second_opinions_total', help: 'as the process has it', labelNames: ['outcome'], registers: [registry] }).inc({ outcome: 'kept' }, kept);
  return registry;
}

const kept = (body: string) => Number(/receipts_vlm_second_opinions_total\{[^}]*outcome="kept"[^}]*\} (\d+)/.exec(body)?.[1]);

describe('renderMetrics with a thread that counts apart', () => {
  it("reports the thread's figures summed with the process's own, and forgets the thread once removed", async () => {
    metrics.vlmSecondOpinions.inc({ outcome: 'kept' }, 2);
    const own = kept((await renderMetrics()).body);
    const registry = threadRegistry(3);
    const remove = addThreadMetrics(async () => (await registry.getMetricsAsJSON()) as ThreadMetrics);
    const body = (await renderMetrics()).body;
    expect(kept(body)).toBe(own + 3);
    // The process's own metrics stay its own: aggregated as a cluster's, this one is left out.
    expect(body).toMatch(/^process_start_time_seconds\{role="api\+worker"\} \d+/m);
    remove();
    expect(kept((await renderMetrics()).body)).toBe(own);
  });

  it('still answers when a thread cannot, without its figures', async () => {
    const remove = addThreadMetrics(() => Promise.reject(new Error('thread stopped')));
    try {
      expect((await renderMetrics()).body).toContain('receipts_vlm_second_opinions_total');
    } finally {
      remove();
    }
  });
});

describe('metricsAccess', () => {
  const TOKEN = 'metrics-token-0123456789';
  it.each([
    ['no token, not public', undefined, false, undefined, 'closed'],
    ['no token, not public, a bearer sent anyway', undefined, false, `Bearer ${TOKEN}`, 'closed'],
    ['no token, public', undefined, true, undefined, 'allowed'],
    ['a token, none sent', TOKEN, false, undefined, 'unauthorized'],
    ['a token, a wrong one sent', TOKEN, false, 'Bearer metrics-token-0123456780', 'unauthorized'],
    ['a token, the token sent', TOKEN, false, `Bearer ${TOKEN}`, 'allowed'],
    ['a token and public: the token still wanted', TOKEN, true, undefined, 'unauthorized'],
    ['a token and public, the token sent', TOKEN, true, `bearer ${TOKEN}`, 'allowed'],
  ] as const)('%s → %s', (_, token, open, authorization, access) => {
    expect(metricsAccess(authorization, { METRICS_TOKEN: token, METRICS_PUBLIC: open })).toBe(access);
  });
});
