// npm run bench:pipeline — the whole path (HTTP → queue → worker → database → socket) against
// the same pipeline in a bare loop at the same concurrency; how fast an upload is accepted (202)
// while every OCR slot is busy, against the same with the service idle; and an express job's wait
// behind 200 queued standard jobs. Service and bare loop alternate BENCH_RUNS times (default 5),
// busy and idle bursts BENCH_BURSTS times (default 9: a burst is seconds, and its p99 swings by
// half from one to the next on a shared machine), taking turns to go first, so a noisy machine
// weighs on both sides alike; every pair's ratio is printed with their median, and a target is
// called met or not only when the median's interval is on one side of it (paired-verdict.ts). BENCH_MODES picks
// the deployments measured for the 202s: postgres (api and worker processes of their own),
// postgres-cluster (the same with API_PROCESSES = one api process per core) and pglite (one process).
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sniffMimeType, type UploadBusMessage } from '@receipts/common';
import { UploadService } from '@receipts/api';
import {
  createLogger,
  connectProducerRedis,
  createReceiptQueue,
  createRedis,
  createWebhookQueue,
  openRuntime,
  parseConfig,
  QuotaService,
  ReceiptJobs,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  WebhookEvents,
  WebhookJobs,
  WebhookRepository,
} from '@receipts/infra';
import { createOcrEngineFromConfig, runPipeline } from '@receipts/worker';
import { createSubscriber, Deployment, processesNamed, rawUpload, signedUpSubscriber, uniqueIp, Visitor, type DeploymentMode } from '#test-support/harness';
import { receiptsDir } from '#test-support/receipt-data';
import { describeVerdict, median, pairedRatios } from './paired-verdict.js';
import { parentOf, processTreeCpuSeconds, schedTimesOf, treeCpuSecondsOf, type SchedTimes } from './process-cpu.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? os.availableParallelism());
// Every shared scan once per run: with 20 a run is ~13 s, where a receipt that needs a second
// opinion (2-3 CPU-s) can end a run with the other slot idle; paired ratios spread 0.78-1.04.
const N = Number(process.env.BENCH_RECEIPTS ?? 40);
// Five: the fewest runs whose median interval reaches 90 % (paired-verdict.ts).
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BURSTS = Number(process.env.BENCH_BURSTS ?? 9);
type BenchMode = DeploymentMode | 'postgres-cluster';
const MODES = (process.env.BENCH_MODES ?? 'postgres,postgres-cluster,pglite').split(',').filter(Boolean) as BenchMode[];
const MODE_LABELS: Record<BenchMode, string> = {
  postgres: 'api and worker processes of their own',
  'postgres-cluster': `the same with API_PROCESSES=${os.availableParallelism()}`,
  pglite: 'api and worker in one process, the pipeline on a thread of its own',
};
// Which measures run: throughput (with the express wait) and acceptance (the 202s); both by default.
const PARTS = new Set((process.env.BENCH_PARTS ?? 'throughput,acceptance').split(','));
const BURST = 50;
const QUEUED_STANDARD = 200;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function loadReceipts(): Promise<Array<{ name: string; bytes: Buffer }>> {
  const names = (await readdir(receiptsDir)).filter((f) => f.endsWith('.jpg')).sort();
  const all = await Promise.all(names.map(async (name) => ({ name, bytes: await readFile(path.join(receiptsDir, name)) })));
  return Array.from({ length: N }, (_, i) => all[i % all.length]!);
}

type Engine = ReturnType<typeof createOcrEngineFromConfig>;
const noop = async () => undefined;

/**
 * The bare side's engine: the one the service's workers make from the same configuration (its
 * languages, its second opinion), warmed as the service's workers are warm.
 */
async function bareEngine(env: Record<string, string>, files: Array<{ bytes: Buffer }>): Promise<Engine> {
  const config = parseConfig({ ...env, ROLES: 'worker', LOG_LEVEL: 'warn' });
  const engine = createOcrEngineFromConfig(config, CONCURRENCY, createLogger({ level: 'warn', role: 'bench' }));
  await runPipeline({ bytes: files[0]!.bytes, mimeType: 'image/jpeg' }, engine, noop, new AbortController().signal);
  return engine;
}

/** The bare loop's receipts per second and CPU-s per receipt (this process and its decoder and tesseract processes). */
async function bareLoop(engine: Engine, files: Array<{ bytes: Buffer }>): Promise<{ rate: number; cpu: number }> {
  const signal = new AbortController().signal;
  let next = 0;
  const cpuBefore = processTreeCpuSeconds();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        await runPipeline({ bytes: file.bytes, mimeType: sniffMimeType(file.bytes)! }, engine, noop, signal);
      }
    }),
  );
  const rate = files.length / ((performance.now() - started) / 1000);
  return { rate, cpu: (processTreeCpuSeconds() - cpuBefore) / files.length };
}

const pairedMedian = (a: number[], b: number[]) => median(pairedRatios(a, b));
const total = (run: ServiceRun) => SERVICE_CPU_ROLES.reduce((sum, [role]) => sum + run.cpu[role], 0);

/**
 * CPU-seconds so far of everything a service run uses: the api's and the worker's process trees
 * (decoder and tesseract processes included), PostgreSQL (its postmaster's tree: backends that
 * ended are counted in what it reaped), Redis, and this process (the client; the bare engine's
 * threads in it are idle meanwhile).
 */
function serviceCpuNow(deployment: Deployment): Record<ServiceCpuRole, number> {
  const { api, workers } = deployment.pids();
  const postgres = processesNamed('postgres');
  // The postmaster: the one postgres process whose parent is not another postgres process.
  const postmaster = postgres.filter((pid) => !postgres.includes(parentOf(pid)));
  const { user, system } = process.cpuUsage();
  return {
    api: treeCpuSecondsOf(api[0]!),
    workers: workers.reduce((sum, pid) => sum + treeCpuSecondsOf(pid), 0),
    postgres: postmaster.reduce((sum, pid) => sum + treeCpuSecondsOf(pid), 0),
    redis: processesNamed('redis-server').reduce((sum, pid) => sum + schedTimesOf(pid).run / 1e9, 0),
    client: (user + system) / 1e6,
  };
}

type ServiceCpuRole = 'api' | 'workers' | 'postgres' | 'redis' | 'client';
const SERVICE_CPU_ROLES: Array<[ServiceCpuRole, string]> = [
  ['workers', 'worker process and its children'],
  ['api', 'api process and its children'],
  ['postgres', 'PostgreSQL'],
  ['redis', 'Redis'],
  ['client', 'this benchmark (the client)'],
];

interface ServiceRun {
  rate: number;
  /** CPU-s per receipt, by role. */
  cpu: Record<ServiceCpuRole, number>;
}

/** Receipts per second through the whole service: N uploads at once, until the last one ends; and the CPU it took. */
async function serviceThroughput(deployment: Deployment, visitor: Visitor, files: Array<{ name: string; bytes: Buffer }>): Promise<ServiceRun> {
  const before = serviceCpuNow(deployment);
  const started = performance.now();
  // Prepared multipart bodies, as in the 202 burst: the bare side has no client to pay for.
  const ids = await Promise.all(files.map(async (f) => (await rawUpload(visitor, f.bytes, f.name)).body.id as string));
  const ends = await Promise.all(ids.map((id) => visitor.waitForEnd(id, 900_000)));
  const rate = files.length / ((performance.now() - started) / 1000);
  const after = serviceCpuNow(deployment);
  const failed = ends.filter((e) => e.event !== 'upload:completed').length;
  if (failed > 0) throw new Error(`${failed} of ${files.length} uploads did not complete`);
  const cpu = Object.fromEntries(SERVICE_CPU_ROLES.map(([role]) => [role, (after[role] - before[role]) / files.length])) as ServiceRun['cpu'];
  return { rate, cpu };
}

/** An anonymous visitor of its own (5 a day each), connected for live events. */
async function newVisitor(baseUrl: string): Promise<Visitor> {
  const visitor = new Visitor(baseUrl, uniqueIp());
  await visitor.connect();
  return visitor;
}

/**
 * Milliseconds to the 202 of BURST concurrent uploads, each from a visitor of its own, sent as
 * prepared multipart bodies (the client shares the two cores; see rawUpload). With
 * `busy`, every OCR slot is taken first (2 × the slots are queued and the burst starts once as
 * many as there are slots report progress). Every upload is cancelled afterwards, so the next
 * measure starts from an idle service.
 */
async function acceptLatencies(deployment: Deployment, files: Array<{ name: string; bytes: Buffer }>, busy: boolean): Promise<{ accepted: number[]; cpu: BurstCpu }> {
  const baseUrl = deployment.baseUrl;
  const started: Array<{ visitor: Visitor; id: string }> = [];
  if (busy) {
    for (let i = 0; i < 2 * CONCURRENCY; i++) {
      const visitor = await newVisitor(baseUrl);
      const { body } = await visitor.upload(files[i % files.length]!.bytes, `load-${i}.jpg`);
      started.push({ visitor, id: body.id as string });
    }
    const inProgress = () => started.filter(({ visitor, id }) => visitor.eventsFor(id).length > 0).length;
    const deadline = Date.now() + 120_000;
    while (inProgress() < CONCURRENCY) {
      if (Date.now() > deadline) throw new Error('the OCR slots did not all start within 2 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const visitors = await Promise.all(Array.from({ length: BURST }, () => newVisitor(baseUrl)));
  const before = cpuNow(deployment);
  const accepted: number[] = [];
  const burst = await Promise.all(
    visitors.map(async (visitor, i) => {
      const t0 = performance.now();
      const res = await rawUpload(visitor, files[i % files.length]!.bytes, `burst-${i}.jpg`);
      accepted.push(performance.now() - t0);
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
      return { visitor, id: res.body.id as string };
    }),
  );
  const cpu = cpuSince(before, cpuNow(deployment));
  const all = [...started, ...burst];
  await Promise.all(all.map(({ visitor, id }) => visitor.request(`/api/ocr/cancel/${id}`, { method: 'POST' })));
  await Promise.all(all.map(({ visitor, id }) => visitor.waitForEnd(id, 300_000)));
  for (const { visitor } of all) visitor.close();
  return { accepted, cpu };
}

/**
 * Where a burst's CPU went, in ms: the api processes (every thread, and their event loops, with
 * the time those waited for a CPU), the worker processes, PostgreSQL's and Redis's processes,
 * and this benchmark (the client). On 2 cores a burst lasts at least half their sum.
 */
interface BurstCpu {
  api: number;
  eventLoop: number;
  eventLoopWait: number;
  workers: number;
  postgres: number;
  redis: number;
  client: number;
}
type Role = 'api' | 'workers' | 'postgres' | 'redis' | 'client';
/** By role and pid (`api:1234`). */
type CpuReading = Map<string, { role: Role; times: SchedTimes }>;

/** schedstat of every process that may take part in a burst, by role and pid. */
function cpuNow(deployment: Deployment): CpuReading {
  const { api, workers } = deployment.pids();
  const reading: CpuReading = new Map();
  const add = (role: Role, pids: number[]) => pids.forEach((pid) => reading.set(`${role}:${pid}`, { role, times: schedTimesOf(pid) }));
  add('api', api);
  add('workers', workers);
  add('postgres', processesNamed('postgres'));
  add('redis', processesNamed('redis-server'));
  add('client', [process.pid]);
  return reading;
}

function cpuSince(before: CpuReading, after: CpuReading): BurstCpu {
  const cpu: BurstCpu = { api: 0, eventLoop: 0, eventLoopWait: 0, workers: 0, postgres: 0, redis: 0, client: 0 };
  for (const [key, { role, times: now }] of after) {
    // A process started during the burst (a new database connection) counts from zero.
    const then = before.get(key)?.times ?? { run: 0, wait: 0, mainRun: 0, mainWait: 0 };
    cpu[role] += (now.run - then.run) / 1e6;
    if (role === 'api') {
      cpu.eventLoop += (now.mainRun - then.mainRun) / 1e6;
      cpu.eventLoopWait += (now.mainWait - then.mainWait) / 1e6;
    }
  }
  return cpu;
}

const CPU_ROWS: Array<[keyof BurstCpu, string]> = [
  ['api', 'api processes, every thread'],
  ['eventLoop', 'of it, their event loops'],
  ['eventLoopWait', 'their event loops waiting for a CPU (not CPU)'],
  ['workers', 'worker processes (pglite: inside the api process)'],
  ['postgres', "PostgreSQL's processes (pglite: idle)"],
  ['redis', 'Redis'],
  ['client', 'this benchmark (the 50 clients)'],
];

function printBurstCpu(busy: BurstCpu[], idle: BurstCpu[]): void {
  console.log("\nWhere a burst's CPU went, ms (median of the bursts; schedstat):\n");
  console.log('| | busy | idle |');
  console.log('| --- | --- | --- |');
  for (const [key, label] of CPU_ROWS) console.log(`| ${label} | ${median(busy.map((c) => c[key])).toFixed(0)} | ${median(idle.map((c) => c[key])).toFixed(0)} |`);
}

/** The 202 measure of one deployment: busy and idle bursts alternating, paired per run. */
async function acceptanceIn(mode: BenchMode, files: Array<{ name: string; bytes: Buffer }>): Promise<void> {
  const cluster = mode === 'postgres-cluster';
  const deployment = await Deployment.start(cluster ? 'postgres' : mode, { WORKER_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'warn' }, {
    apiProcesses: cluster ? os.availableParallelism() : 1,
  });
  try {
    // Warm-up: loads the OCR workers and the api's code paths.
    await acceptLatencies(deployment, files, true);
    const busyP99: number[] = [];
    const idleP99: number[] = [];
    const busyCpu: BurstCpu[] = [];
    const idleCpu: BurstCpu[] = [];
    console.log(`\n202 accepted, ${BURST} concurrent uploads, ${mode} (${MODE_LABELS[mode]}):\n`);
    console.log('| run | busy p50 / p99 | idle p50 / p99 (baseline) | ratio of p99s |');
    console.log('| --- | --- | --- | --- |');
    for (let run = 0; run < BURSTS; run++) {
      const order = run % 2 === 0 ? [true, false] : [false, true];
      const result = new Map<boolean, { accepted: number[]; cpu: BurstCpu }>();
      for (const busy of order) result.set(busy, await acceptLatencies(deployment, files, busy));
      const { accepted: busy, cpu: cpuBusy } = result.get(true)!;
      const { accepted: idle, cpu: cpuIdle } = result.get(false)!;
      busyCpu.push(cpuBusy);
      idleCpu.push(cpuIdle);
      busyP99.push(quantile(busy, 0.99));
      idleP99.push(quantile(idle, 0.99));
      console.log(
        `| ${run + 1} | ${fmt(quantile(busy, 0.5))} / ${fmt(quantile(busy, 0.99))} | ${fmt(quantile(idle, 0.5))} / ${fmt(quantile(idle, 0.99))} | ${(busyP99.at(-1)! / idleP99.at(-1)!).toFixed(2)} |`,
      );
    }
    const p99 = describeVerdict(busyP99, { atMost: 150 }, fmt, 'bursts');
    console.log(`| median | p99 ${p99} | p99 ${fmt(median(idleP99))} | ${pairedMedian(busyP99, idleP99).toFixed(2)} |`);
    printBurstCpu(busyCpu, idleCpu);
  } finally {
    await deployment.stop();
  }
}

async function main() {
  const files = await loadReceipts();
  console.log(`bench:pipeline — ${N} receipts per throughput run, ${RUNS} throughput runs, ${BURSTS} pairs of 202 bursts, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores`);
  if (PARTS.has('throughput')) await throughputAndExpress(files);
  // 3. How fast uploads are accepted while OCR saturates the cores, per deployment mode.
  if (PARTS.has('acceptance')) for (const mode of MODES) await acceptanceIn(mode, files);
}

async function throughputAndExpress(files: Array<{ name: string; bytes: Buffer }>): Promise<void> {

  const deployment = await Deployment.start('postgres', { WORKER_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'warn' });
  const engine = await bareEngine(deployment.env, files);
  try {
    // A subscriber (monthly quota of 1,000) so the quota is not what is measured.
    const { visitor } = await signedUpSubscriber(deployment.baseUrl, deployment.services.databaseUrl, 'business');
    await visitor.connect();
    // Warm-up: a whole run of each side, not counted, so both are measured as a service that has
    // been up for a while is (compiled code, loaded OCR workers, decoders started); measured
    // from cold, the first runs mostly compared how fast each side warms up.
    await visitor.upload(files[0]!.bytes, 'warmup.jpg', '?wait=1');
    const warm = { service: await serviceThroughput(deployment, visitor, files), bare: await bareLoop(engine, files) };

    // 1. Throughput: the whole service against the bare loop, taking turns to go first. The side
    // not measured is idle (the service's processes wait on Redis; the bare engine holds its threads).
    // With every core busy, receipts per second follow CPU-s per receipt, which a run's last slow
    // receipt (one slot idle at the end) does not sway: both are printed.
    console.log('\nThroughput, receipts/s and CPU-s per receipt (postgres: api and worker processes of their own):\n');
    console.log('| run | service | bare pipeline loop (baseline) | ratio service / bare | CPU-s per receipt: service | bare | ratio bare / service |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    const row = (label: string, s: ServiceRun, b: { rate: number; cpu: number }) =>
      console.log(`| ${label} | ${s.rate.toFixed(3)} | ${b.rate.toFixed(3)} | ${(s.rate / b.rate).toFixed(3)} | ${total(s).toFixed(3)} | ${b.cpu.toFixed(3)} | ${(b.cpu / total(s)).toFixed(3)} |`);
    row('warm-up (not counted)', warm.service, warm.bare);
    const service: ServiceRun[] = [];
    const bare: Array<{ rate: number; cpu: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) {
        service.push(await serviceThroughput(deployment, visitor, files));
        bare.push(await bareLoop(engine, files));
      } else {
        bare.push(await bareLoop(engine, files));
        service.push(await serviceThroughput(deployment, visitor, files));
      }
      row(String(run + 1), service.at(-1)!, bare.at(-1)!);
    }
    const ratios = pairedRatios(
      service.map((s) => s.rate),
      bare.map((b) => b.rate),
    );
    const cpuRatio = pairedMedian(
      bare.map((b) => b.cpu),
      service.map(total),
    );
    const ratio = describeVerdict(ratios, { atLeast: 0.95 }, (x) => x.toFixed(3));
    console.log(
      `| median | ${median(service.map((s) => s.rate)).toFixed(3)} | ${median(bare.map((b) => b.rate)).toFixed(3)} | ${ratio} | ${median(service.map(total)).toFixed(3)} | ${median(bare.map((b) => b.cpu)).toFixed(3)} | ${cpuRatio.toFixed(3)} |`,
    );
    console.log("\nWhere the service's CPU went, CPU-s per receipt (median of the runs):\n");
    console.log('| | CPU-s per receipt |');
    console.log('| --- | --- |');
    for (const [role, label] of SERVICE_CPU_ROLES) console.log(`| ${label} | ${median(service.map((s) => s.cpu[role])).toFixed(3)} |`);
    console.log(`| the bare loop (baseline) | ${median(bare.map((b) => b.cpu)).toFixed(3)} |`);
    visitor.close();

    // 2. An express job's wait behind 200 queued standard jobs.
    // The same settings as the deployment's processes, so files land in its storage.
    const config = parseConfig({ ...deployment.env, ROLES: 'api', LOG_LEVEL: 'warn' });
    const runtime = await openRuntime(config, createLogger({ level: 'warn', role: 'bench' }));
    const producer = await connectProducerRedis(config.REDIS_URL);
    const queue = createReceiptQueue(producer, config.QUEUE_PREFIX);
    const webhookJobs = new WebhookJobs(createWebhookQueue(producer, config.QUEUE_PREFIX, runtime.log));
    const uploads = new UploadService({
      ...runtime,
      uploads: new UploadRepository(runtime.db),
      uploadReads: new UploadReadRepository(runtime.db),
      duplicates: new UploadDuplicateRepository(runtime.db),
      quota: new QuotaService(runtime.db, runtime.config.ADMIN_EMAILS),
      jobs: new ReceiptJobs(queue, producer, { prefix: config.QUEUE_PREFIX, attempts: 1, log: runtime.log }),
      webhooks: new WebhookEvents({ webhooks: new WebhookRepository(runtime.db), jobs: webhookJobs, attempts: 1, log: runtime.log }),
    });
    // One anonymous visitor per upload: each has a quota of its own.
    const anonymous = (n: number) => ({ userId: null, anonId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });
    for (let i = 0; i < QUEUED_STANDARD; i++) {
      await uploads.create(anonymous(i), { originalname: `s${i}.jpg`, buffer: files[i % files.length]!.bytes });
    }
    // Their files are stored and their jobs queued after create answers: all 200 are queued first.
    await uploads.drain();
    const subscriber = await createSubscriber(runtime.db);
    let expressStarted = 0;
    const listener = createRedis(config.REDIS_URL);
    let expressId = '';
    // Listening before the job exists, so its first progress event cannot be missed.
    await runtime.bus.subscribe(listener, runtime.log, (m: UploadBusMessage) => {
      if (m.event === 'upload:progress' && m.payload.id === expressId && !expressStarted) expressStarted = performance.now();
    });
    const expressQueuedAt = performance.now();
    expressId = (await uploads.create({ userId: subscriber.userId, anonId: null }, { originalname: 'express.jpg', buffer: files[0]!.bytes })).id;
    const giveUp = Date.now() + 120_000;
    while (!expressStarted) {
      if (Date.now() > giveUp) throw new Error('the express job did not start within 2 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(`\nexpress job wait with ${QUEUED_STANDARD} standard jobs queued: ${fmt(expressStarted - expressQueuedAt)}`);
    await queue.obliterate({ force: true });
    await webhookJobs.close();
    listener.disconnect();
    producer.disconnect();
    await runtime.close();
  } finally {
    await engine.close();
    await deployment.stop();
  }
}

await main();
process.exit(0);
