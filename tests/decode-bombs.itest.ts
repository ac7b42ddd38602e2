// Decompression and complexity bombs against the real service (api and worker in one process,
// real PostgreSQL and Redis): each fails its own upload with a message, once, while /healthz
// keeps answering and the process's memory stays put; the next upload completes.
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { UploadView } from '@receipts/common';
import { createReceiptQueue, type ReceiptQueue } from '@receipts/infra';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heicClaiming, hugeImagePdf, pathBombPdf } from './support/decode-bombs.js';
import { freePort } from './support/free-port.js';
import { printedReceipt } from './support/printed-receipt.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { provisionServices, type TestServices } from './support/services.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const RECEIPT = 'receipt.png';
/** Shorter than the 30 s default so the run stays short; the bomb would take ~45 s and 1.2 GB unchecked. */
const DECODE_TIMEOUT_MS = 12_000;

/** Resident memory of a process in MB, or 0 once it is gone. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'latin1').catch((err: NodeJS.ErrnoException) => {
    // A decoder killed between listing and reading: it holds nothing any more.
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The service's longest event-loop delay since the previous call (prom-client resets its
 * histogram on every scrape), in ms: blocking by the service itself, apart from the network.
 */
async function eventLoopMaxMs(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)/m.exec(text)?.[1]) * 1000;
}

/** The child processes of `pid` (the decoders), from /proc. */
async function childPids(pid: number): Promise<number[]> {
  const list = await readFile(`/proc/${pid}/task/${pid}/children`, 'latin1');
  return list.split(/\s+/).filter(Boolean).map(Number);
}

interface Watch {
  healthMs: number[];
  healthFailures: string[];
  servicePeakMb: number;
  decoderPeakMb: number;
  stop(): Promise<void>;
}

/** Asks /healthz every 100 ms and samples the service's and its decoders' memory until stopped. */
function watchService(baseUrl: string, pid: number): Watch {
  let running = true;
  const watch: Watch = {
    healthMs: [],
    healthFailures: [],
    servicePeakMb: 0,
    decoderPeakMb: 0,
    stop: async () => {
      running = false;
      await Promise.all([health, memory]);
    },
  };
  const health = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) });
        await res.text();
        if (res.ok) watch.healthMs.push(performance.now() - started);
        else watch.healthFailures.push(`status ${res.status}`);
      } catch (err) {
        watch.healthFailures.push((err as Error).message);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const memory = (async () => {
    while (running) {
      watch.servicePeakMb = Math.max(watch.servicePeakMb, await rssMb(pid));
      for (const child of await childPids(pid)) watch.decoderPeakMb = Math.max(watch.decoderPeakMb, await rssMb(child));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return watch;
}

describe('decoding bombs against the running service', () => {
  let services: TestServices;
  let dataDir: string;
  let service: ServiceProcess;
  let baseUrl: string;
  let queue: ReceiptQueue;
  let db: pg.Client;
  let receipt: Buffer;
  let baselineMb: number;

  beforeAll(async () => {
    receipt = await printedReceipt();
    services = await provisionServices();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'receipts-bombs-'));
    service = await startServiceProcess('api', {
      ROLES: 'api,worker',
      DATABASE_URL: services.databaseUrl,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      REDIS_URL: services.redisUrl,
      REDIS_AUTOSTART: 'false',
      QUEUE_PREFIX: services.prefix,
      DATA_DIR: dataDir,
      WORKER_CONCURRENCY: '2',
      // Each visitor its own client address (X-Forwarded-For from a proxy on loopback), so the
      // warm-up upload does not count against the bombs' visitors.
      TRUST_PROXY: 'loopback',
      // A lock shorter than any bomb: a frozen event loop would lose it and run the job again.
      JOB_LOCK_MS: '4000',
      STALLED_CHECK_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: '300',
      DECODE_TIMEOUT_MS: String(DECODE_TIMEOUT_MS),
      // The event loop's delay is read from /metrics.
      METRICS_PUBLIC: 'true',
    });
    baseUrl = `http://127.0.0.1:${service.port}`;
    queue = createReceiptQueue(new Redis(services.redisUrl, { maxRetriesPerRequest: null }), services.prefix);
    db = new pg.Client({ connectionString: services.databaseUrl });
    await db.connect();
    // Warm up: one upload through every step, so the baseline includes the OCR engine and a decoder.
    const visitor = new Visitor(baseUrl, uniqueIp());
    await visitor.connect();
    const { body } = await visitor.upload(receipt, RECEIPT);
    expect((await visitor.waitForEnd(body.id as string)).event).toBe('upload:completed');
    visitor.close();
    baselineMb = await rssMb(service.proc.pid!);
  });

  /**
   * The upload's stored state once it ended. Read from the api, not the socket: a refusal in a
   * few milliseconds can beat the socket's joining its room.
   */
  const ended = (visitor: Visitor, id: string, timeoutMs: number) =>
    until(
      async () => (await visitor.json<UploadView>(`/api/uploads/${id}`)).body,
      (view) => view.status === 'failed' || view.status === 'completed',
      `upload ${id} to end`,
      { timeoutMs, everyMs: 50 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${service.output().slice(-6000)}`);
    });

  afterAll(async () => {
    await db?.end();
    await queue?.close();
    await service?.stop('SIGTERM');
    await services?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each<[string, () => Buffer, string, { cpuAtLeastMs?: number }]>([
    ['a page of a million path operators', () => pathBombPdf(1_000_000), 'This PDF is too complex to read in time.', { cpuAtLeastMs: DECODE_TIMEOUT_MS }],
    ['a PDF holding a 20000 × 20000 image', () => hugeImagePdf(20_000), 'This file is too large to process (more than 80 megapixels).', {}],
    ['a HEIC claiming 30000 × 30000 pixels', () => heicClaiming(30_000, 30_000), 'This image is too large to process (more than 80 megapixels).', {}],
  ])('fails %s once, with a message, while the service stays responsive', async (name, make, message, { cpuAtLeastMs }) => {
    const visitor = new Visitor(baseUrl, uniqueIp());
    await visitor.connect();
    const bomb = make();
    await eventLoopMaxMs(baseUrl);
    const watch = watchService(baseUrl, service.proc.pid!);
    const started = performance.now();
    let id = '';
    let end: UploadView;
    let failedAfterMs: number;
    try {
      const { status, body } = await visitor.upload(bomb, 'receipt.pdf');
      expect(status).toBe(202);
      id = body.id as string;
      end = await ended(visitor, id, 90_000);
      failedAfterMs = performance.now() - started;
      // A few more answers after the end, so a fast refusal is measured too.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      await watch.stop();
    }

    const loopMaxMs = await eventLoopMaxMs(baseUrl);
    const sorted = [...watch.healthMs].sort((a, b) => a - b);
    const maxHealthMs = sorted.at(-1)!;
    console.log(
      `${name} (${Math.round(bomb.length / 1024)} KB): failed after ${Math.round(failedAfterMs)} ms; ` +
        `/healthz answered ${sorted.length} times, median ${Math.round(sorted[sorted.length >> 1]!)} ms, max ${Math.round(maxHealthMs)} ms; ` +
        `service event loop delayed at most ${Math.round(loopMaxMs)} ms; ` +
        `service RSS ${Math.round(baselineMb)} → peak ${Math.round(watch.servicePeakMb)} MB; decoder peak ${Math.round(watch.decoderPeakMb)} MB`,
    );
    expect(end).toMatchObject({ status: 'failed', error: message });
    if (cpuAtLeastMs) {
      // The file had all the CPU time the limit gives (its decoder's threads together), then was stopped.
      const kill = service
        .output()
        .split('\n')
        .filter((l) => l.includes('decoder killed: file took too long'))
        .map((l) => JSON.parse(l) as { cpuMs: number })
        .at(-1);
      expect(kill?.cpuMs).toBeGreaterThanOrEqual(cpuAtLeastMs);
    }
    expect(failedAfterMs).toBeLessThan(60_000);

    expect(watch.healthFailures).toEqual([]);
    expect(watch.healthMs.length).toBeGreaterThanOrEqual(3);
    // Generous: what matters is that it answers at all while the bomb is decoded.
    expect(maxHealthMs).toBeLessThan(1000);
    expect(loopMaxMs).toBeLessThan(1000);
    // The service itself holds no decoded pixels; decoders stay under their limit (1536 MB default).
    expect(watch.servicePeakMb - baselineMb).toBeLessThan(400);
    expect(watch.decoderPeakMb).toBeLessThan(1536 + 200);

    // Failed once, not retried: one BullMQ attempt, one claim of the upload.
    const job = (await queue.getJob(id))!;
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    const { rows } = await db.query('SELECT status, error, attempts FROM uploads WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'failed', error: message, attempts: 1 });
    // The quota unit came back: the visitor still has all 5 for today.
    const quota = await visitor.json<{ used: number }>('/api/user/quota');
    expect(quota.body.used).toBe(0);
    visitor.close();
  });

  it('reads the next uploads: a multi-page TIFF scan and a PNG named .pdf, by their bytes', async () => {
    const visitor = new Visitor(baseUrl, uniqueIp());
    await visitor.connect();
    const blank = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const tiff = await sharp([await sharp(receipt).png().toBuffer(), blank], { join: { animated: true } }).tiff({ compression: 'lzw' }).toBuffer();
    const png = await sharp(receipt).png().toBuffer();
    for (const [bytes, filename, mimeType] of [
      [tiff, 'scan.tif', 'image/tiff'],
      [png, 'receipt.pdf', 'image/png'],
    ] as const) {
      const { status, body } = await visitor.upload(bytes, filename);
      expect(status).toBe(202);
      const view = await ended(visitor, body.id as string, 180_000);
      expect(view).toMatchObject({ filename, mimeType, status: 'completed' });
      expect(view.receipt?.total).toBe(10.4);
    }
    visitor.close();
  });
});
