// npm run bench:pipeline — the whole path (HTTP → queue → worker → database → socket) against
// the same pipeline in a bare loop at the same concurrency, first-progress latency under 50
// concurrent uploads, and an express job's wait behind 200 queued standard jobs.
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
  openRuntime,
  parseConfig,
  QuotaService,
  ReceiptJobs,
  UploadRepository,
} from '@receipts/infra';
import { runPipeline } from '@receipts/worker';
import { createOcrEngine } from '../worker/src/ocr/create-ocr-engine.js';
import { createSubscriber, signedUpSubscriber } from '../tests/support/accounts.js';
import { Deployment } from '../tests/support/deployment.js';
import { receiptsDir } from '../tests/support/service-process.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? os.availableParallelism());
const N = Number(process.env.BENCH_RECEIPTS ?? 40);
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

async function bareLoop(files: Array<{ bytes: Buffer }>): Promise<number> {
  const engine = createOcrEngine({ engine: 'local', concurrency: CONCURRENCY, langs: ['eng'] });
  const signal = new AbortController().signal;
  const noop = async () => undefined;
  // Warm the pool as the service's workers are warm.
  await runPipeline({ bytes: files[0]!.bytes, mimeType: 'image/jpeg' }, engine, noop, signal);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        await runPipeline({ bytes: file.bytes, mimeType: sniffMimeType(file.bytes)! }, engine, noop, signal);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await engine.close();
  return files.length / seconds;
}

async function main() {
  const files = await loadReceipts();
  console.log(`bench:pipeline — ${N} receipts, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores\n`);

  const deployment = await Deployment.start('postgres', { WORKER_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'warn' });
  try {
    // A subscriber (monthly quota of 1,000) so the quota is not what is measured.
    const { visitor } = await signedUpSubscriber(deployment.baseUrl, deployment.services.databaseUrl, 'business');
    await visitor.connect();
    // Warm-up so both sides start with loaded OCR workers.
    await visitor.upload(files[0]!.bytes, 'warmup.jpg', '?wait=1');

    // 1. Throughput through the whole service.
    const started = performance.now();
    const ids = await Promise.all(files.map(async (f) => (await visitor.upload(f.bytes, f.name)).body.id as string));
    await Promise.all(ids.map((id) => visitor.waitForEnd(id, 600_000)));
    const serviceRate = N / ((performance.now() - started) / 1000);
    const completed = ids.filter((id) => visitor.eventsFor(id).some((e) => e.event === 'upload:completed')).length;
    console.log('| measure | figure |');
    console.log('| --- | --- |');
    console.log(`| service throughput (${completed}/${N} completed) | ${serviceRate.toFixed(3)} receipts/s |`);

    // 2. Upload → first progress event with 50 concurrent uploads.
    const sentAt = new Map<string, number>();
    const accepted: number[] = [];
    const burst = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const t0 = performance.now();
        const { body } = await visitor.upload(files[i % files.length]!.bytes, `burst-${i}.jpg`);
        accepted.push(performance.now() - t0);
        sentAt.set(body.id as string, t0);
        return body.id as string;
      }),
    );
    await Promise.all(burst.map((id) => visitor.waitForEnd(id, 900_000)));
    const latencies = burst.map((id) => visitor.eventsFor(id).find((e) => e.event === 'upload:progress')!.at - sentAt.get(id)!);
    console.log(`| ${BURST} concurrent uploads: 202 accepted p50 / p99 | ${fmt(quantile(accepted, 0.5))} / ${fmt(quantile(accepted, 0.99))} |`);
    console.log(`| ${BURST} concurrent uploads: upload → first progress p50 / p99 | ${fmt(quantile(latencies, 0.5))} / ${fmt(quantile(latencies, 0.99))} |`);

    // 3. An express job's wait behind 200 queued standard jobs.
    // The same settings as the deployment's processes, so files land in its storage.
    const config = parseConfig({ ...deployment.env, ROLES: 'api', LOG_LEVEL: 'warn' });
    const runtime = await openRuntime(config, createLogger({ level: 'warn', role: 'bench' }));
    const producer = await connectProducerRedis(config.REDIS_URL);
    const queue = createReceiptQueue(producer, config.QUEUE_PREFIX);
    const uploads = new UploadService({
      ...runtime,
      uploads: new UploadRepository(runtime.db),
      quota: new QuotaService(runtime.db, runtime.config.ADMIN_EMAILS),
      jobs: new ReceiptJobs(queue, producer, { prefix: config.QUEUE_PREFIX, attempts: 1, log: runtime.log }),
    });
    // One anonymous visitor per upload: each has a quota of its own.
    const anonymous = (n: number) => ({ userId: null, anonId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });
    for (let i = 0; i < QUEUED_STANDARD; i++) {
      await uploads.create(anonymous(i), { originalname: `s${i}.jpg`, buffer: files[i % files.length]!.bytes });
    }
    const subscriber = await createSubscriber(runtime.db);
    let expressStarted = 0;
    const listener = createRedis(config.REDIS_URL);
    let expressId = '';
    // Listening before the job exists, so its first progress event cannot be missed.
    await runtime.bus.subscribe(listener, (m: UploadBusMessage) => {
      if (m.event === 'upload:progress' && m.payload.id === expressId && !expressStarted) expressStarted = performance.now();
    });
    const expressQueuedAt = performance.now();
    expressId = (await uploads.create({ userId: subscriber.userId, anonId: null }, { originalname: 'express.jpg', buffer: files[0]!.bytes })).id;
    const giveUp = Date.now() + 120_000;
    while (!expressStarted) {
      if (Date.now() > giveUp) throw new Error('the express job did not start within 2 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    const expressWait = expressStarted - expressQueuedAt;
    console.log(`| express job wait with ${QUEUED_STANDARD} standard jobs queued | ${fmt(expressWait)} |`);
    await queue.obliterate({ force: true });
    listener.disconnect();
    producer.disconnect();
    await runtime.close();
    visitor.close();

    // 4. The same pipeline in a bare loop, after the service is idle.
    await deployment.stop();
    const bareRate = await bareLoop(files);

    console.log(`| bare pipeline loop, same concurrency (baseline) | ${bareRate.toFixed(3)} receipts/s |`);
    console.log(`| ratio service / bare (target ≥ 0.95) | ${(serviceRate / bareRate).toFixed(3)} |`);
  } catch (err) {
    await deployment.stop().catch(() => undefined);
    throw err;
  }
}

await main();
process.exit(0);
