import cluster from 'node:cluster';
import { timingSafeEqual } from 'node:crypto';
import { LANE_PRIORITY, type Lane } from '@receipts/common';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { ReceiptQueue } from './job-queue.js';

/**
 * Every Prometheus metric of the service, in one registry that api and worker share (a process
 * running both roles serves them all from one /metrics). Names follow Prometheus conventions:
 * seconds and bytes, `_total` for counters.
 */
export const metricsRegistry = new Registry();

const lanes = Object.keys(LANE_PRIORITY) as Lane[];

export const metrics = {
  jobsCompleted: new Counter({
    name: 'receipts_jobs_completed_total',
    help: 'Receipt jobs that stored a receipt, per lane',
    labelNames: ['lane'] as const,
    registers: [metricsRegistry],
  }),
  jobsFailed: new Counter({
    name: 'receipts_jobs_failed_total',
    help: 'Receipt jobs that ended their upload as failed (after the last attempt), per lane',
    labelNames: ['lane'] as const,
    registers: [metricsRegistry],
  }),
  jobsRetried: new Counter({
    name: 'receipts_jobs_retried_total',
    help: 'Receipt job attempts that failed and were left to retry, per lane',
    labelNames: ['lane'] as const,
    registers: [metricsRegistry],
  }),
  jobsHandedBack: new Counter({
    name: 'receipts_jobs_handed_back_total',
    help: 'Active jobs put back in the queue by a worker shutting down, or re-queued after Redis lost them',
    labelNames: ['reason'] as const,
    registers: [metricsRegistry],
  }),
  jobsActive: new Gauge({
    name: 'receipts_jobs_active',
    help: 'Receipt jobs this process is running now',
    registers: [metricsRegistry],
  }),
  jobDuration: new Histogram({
    name: 'receipts_job_duration_seconds',
    help: 'Time from a worker claiming an upload to its end, per lane and outcome',
    labelNames: ['lane', 'outcome'] as const,
    buckets: [0.5, 1, 2, 4, 8, 15, 30, 60, 120, 300],
    registers: [metricsRegistry],
  }),
  ocrDuration: new Histogram({
    name: 'receipts_ocr_duration_seconds',
    help: 'Time the OCR engine took to recognise one upload, per engine',
    labelNames: ['engine'] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [metricsRegistry],
  }),
  vlmRequests: new Counter({
    name: 'receipts_vlm_requests_total',
    help: 'HTTP requests to the vision model endpoint (every try), per model and outcome: ok, timeout, rate_limited, server_error, client_error, connection_error',
    labelNames: ['model', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  vlmRequestDuration: new Histogram({
    name: 'receipts_vlm_request_duration_seconds',
    help: 'Latency of one request to the vision model endpoint, sending to last token, per model and outcome',
    labelNames: ['model', 'outcome'] as const,
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers: [metricsRegistry],
  }),
  vlmWaiting: new Gauge({
    name: 'receipts_vlm_waiting_requests',
    help: 'Requests waiting for a slot under VLM_CONCURRENCY, per endpoint (host:port)',
    labelNames: ['endpoint'] as const,
    registers: [metricsRegistry],
  }),
  vlmTokens: new Counter({
    name: 'receipts_vlm_tokens_total',
    help: 'Tokens the vision model endpoint reported using, per model and kind (prompt, completion)',
    labelNames: ['model', 'kind'] as const,
    registers: [metricsRegistry],
  }),
  vlmCost: new Counter({
    name: 'receipts_vlm_cost_usd_total',
    help: 'What those tokens cost at VLM_PRICE_INPUT_PER_MTOK and VLM_PRICE_OUTPUT_PER_MTOK, per model',
    labelNames: ['model'] as const,
    registers: [metricsRegistry],
  }),
  vlmAnswers: new Counter({
    name: 'receipts_vlm_answers_total',
    help: 'Answers of the vision model per model and outcome: valid, repaired (valid after one repair request), malformed',
    labelNames: ['model', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  vlmSecondOpinions: new Counter({
    name: 'receipts_vlm_second_opinions_total',
    help: 'Second opinions asked of the vision model on poorly read receipts: kept (it made more sense of the receipt), discarded, failed',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  uploadSize: new Histogram({
    name: 'receipts_upload_size_bytes',
    help: 'Size of accepted uploads, per file type',
    labelNames: ['mime_type'] as const,
    buckets: [16_384, 65_536, 262_144, 524_288, 1_048_576, 2_097_152, 4_194_304, 10_485_760],
    registers: [metricsRegistry],
  }),
  webhookAttempts: new Counter({
    name: 'receipts_webhook_attempts_total',
    help: 'Webhook delivery attempts: delivered, failed and retried, failed for good, or not sent (the endpoint was turned off meanwhile)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  webhookEventsNotRecorded: new Counter({
    name: 'receipts_webhook_events_not_recorded_total',
    help: 'Events whose webhook deliveries could not be written (the database failed); the change itself stood',
    labelNames: ['event'] as const,
    registers: [metricsRegistry],
  }),
  httpDuration: new Histogram({
    name: 'receipts_http_request_duration_seconds',
    help: 'HTTP request latency of the api, per method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metricsRegistry],
  }),
};

let queueForDepth: ReceiptQueue | null = null;
const QUEUE_SCRAPE_TIMEOUT_MS = 1_000;

/** Waiting jobs per lane and jobs per state, read from Redis at each scrape. */
new Gauge({
  name: 'receipts_queue_depth',
  help: 'Receipt jobs waiting per lane (a standard job promoted after waiting too long counts as express)',
  labelNames: ['lane'] as const,
  registers: [metricsRegistry],
  // The same figures from Redis in every process of a cluster: counted once, not summed.
  aggregator: 'first',
  async collect() {
    const counts = await readQueue((q) => q.getCountsPerPriority(lanes.map((l) => LANE_PRIORITY[l])));
    if (!counts) return;
    for (const lane of lanes) this.set({ lane }, counts[String(LANE_PRIORITY[lane])] ?? 0);
  },
});

new Gauge({
  name: 'receipts_queue_jobs',
  help: 'Receipt jobs in the queue per state (active on any worker, delayed for a retry, kept as failed)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  aggregator: 'first',
  async collect() {
    const counts = await readQueue((q) => q.getJobCounts('active', 'delayed', 'failed'));
    if (!counts) return;
    for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
  },
});

/** A scrape must answer even with Redis down: the queue gauges are then left out of this scrape. */
async function readQueue<T>(read: (queue: ReceiptQueue) => Promise<T>): Promise<T | null> {
  if (!queueForDepth) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), QUEUE_SCRAPE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([read(queueForDepth).catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let initialised = false;

/**
 * Once per process: labels every series with the process role and adds Node's own metrics
 * (CPU, memory, event loop lag). `queue` lets the scrape report queue depth.
 */
export function initMetrics(options: { role: string; queue?: ReceiptQueue }): void {
  if (options.queue) queueForDepth = options.queue;
  if (initialised) return;
  initialised = true;
  metricsRegistry.setDefaultLabels({ role: options.role });
  collectDefaultMetrics({ register: metricsRegistry });
}

const GATHER_ASK = 'receipts:metrics-gather';
const GATHER_ANSWER = 'receipts:metrics-gathered';
/** Longer than prom-client's own 5 s for a process to answer the supervisor. */
const GATHER_TIMEOUT_MS = 6_000;
type GatherAnswer = { type: typeof GATHER_ANSWER; id: number; body?: string; error?: string };
/** Scrapes of this api process waiting for its supervisor, by id; null outside a cluster. */
let gathering: Map<number, (answer: GatherAnswer) => void> | null = null;
let nextGather = 0;

/**
 * In an api process of a cluster (API_PROCESSES): a scrape, whichever process takes it, answers
 * with every process's figures (counters and histograms summed; the queue's, read from Redis,
 * once), gathered by the supervisor through prom-client's AggregatorRegistry.
 */
export function joinClusterMetrics(): void {
  if (gathering) return;
  gathering = new Map();
  // Constructed for its side effect: it answers the supervisor's requests with these registries.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metricsRegistry]);
  process.on('message', (message: GatherAnswer) => {
    if (message?.type === GATHER_ANSWER) gathering?.get(message.id)?.(message);
  });
}

/** In the supervisor of a cluster: gathers every api process's figures when one is scraped. */
export function gatherClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id: number }) => {
    if (message?.type !== GATHER_ASK) return;
    const answer = (reply: Omit<GatherAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: GATHER_ANSWER, id: message.id, ...reply });
    };
    aggregator.clusterMetrics().then(
      (body) => answer({ body }),
      (err: Error) => answer({ error: err.message }),
    );
  });
}

function gatherFromSupervisor(waiting: Map<number, (answer: GatherAnswer) => void>): Promise<string> {
  const id = nextGather++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle({ type: GATHER_ANSWER, id, error: 'the api processes did not all answer in time' }), GATHER_TIMEOUT_MS);
    const settle = (answer: GatherAnswer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer.body !== undefined) resolve(answer.body);
      else reject(new Error(`metrics not gathered: ${answer.error}`));
    };
    waiting.set(id, settle);
    process.send!({ type: GATHER_ASK, id });
  });
}

/** A thread's figures as it hands them to its process: its registry, as prom-client's JSON. */
export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Threads of this process counting in registries of their own (each thread loads this module anew). */
const threadSources = new Set<() => Promise<ThreadMetrics>>();

/**
 * A thread of this process whose figures a scrape reports with the process's own (summed, as
 * the cluster's are; the process's own first where a gauge takes one). Returns its removal.
 */
export function addThreadMetrics(source: () => Promise<ThreadMetrics>): () => void {
  threadSources.add(source);
  return () => threadSources.delete(source);
}

/** In a thread whose metrics its process reports (addThreadMetrics): the process's role label, not its default metrics, which are the process's. */
export function labelThreadMetrics(role: string): void {
  metricsRegistry.setDefaultLabels({ role });
}

/** This thread's figures, for its process's scrape. */
export function threadMetrics(): Promise<ThreadMetrics> {
  return metricsRegistry.getMetricsAsJSON() as Promise<ThreadMetrics>;
}

/**
 * The process's figures with its threads': a metric a thread has counted is summed with the
 * process's own (AggregatorRegistry, as the cluster's are); every other metric is the process's
 * alone, as it would be without threads (aggregating those too would drop or average the
 * process's default metrics).
 */
async function processMetrics(): Promise<string> {
  // A thread that cannot answer (stopping, restarting) leaves its figures out of this scrape only.
  const answers = await Promise.all([...threadSources].map((source) => source().catch((): ThreadMetrics => [])));
  const counted = answers.flat().filter((m) => m.values.length > 0);
  if (counted.length === 0) return metricsRegistry.metrics();
  const names = new Set(counted.map((m) => m.name));
  const own = ((await metricsRegistry.getMetricsAsJSON()) as ThreadMetrics).filter((m) => names.has(m.name));
  const summed = AggregatorRegistry.aggregate([own, counted]);
  // In the registry's order and its text format (prom-client's metrics(): families apart by a blank line).
  const families = await Promise.all(
    metricsRegistry.getMetricsAsArray().map((m) => (names.has(m.name) ? summed : metricsRegistry).getSingleMetricAsString(m.name)),
  );
  return `${families.join('\n\n')}\n`;
}

/** The Prometheus text exposition of every metric (of every api process, in a cluster; of every thread that counts apart). */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const body = gathering ? await gatherFromSupervisor(gathering) : await processMetrics();
  return { contentType: metricsRegistry.contentType, body };
}

/**
 * Who may scrape /metrics: with METRICS_TOKEN set, whoever sends it as a bearer token; without
 * one, everyone only when METRICS_PUBLIC opens it, else no one (`closed`, answered as not found:
 * its figures show routes, queue depths and upload sizes).
 */
export function metricsAccess(
  authorization: string | undefined,
  config: { METRICS_TOKEN?: string; METRICS_PUBLIC: boolean },
): 'allowed' | 'unauthorized' | 'closed' {
  const token = config.METRICS_TOKEN;
  if (!token) return config.METRICS_PUBLIC ? 'allowed' : 'closed';
  const given = Buffer.from(authorization?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'allowed' : 'unauthorized';
}
