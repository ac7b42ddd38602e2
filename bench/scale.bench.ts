// npm run bench:scale — the same batch of real receipts through 1 api and 1, 2 … N worker
// processes (N = cores, one OCR slot each, as `docker compose up -d --scale worker=N` with
// WORKER_CONCURRENCY=1 runs them). Prints throughput per worker count and the speed-up against
// 1 worker, in the same run (target ≥ 0.9 × workers).
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Deployment, signedUpSubscriber } from '#test-support/harness';
import { receiptsDir } from '#test-support/receipt-data';

const CORES = os.availableParallelism();
const MAX_WORKERS = Number(process.env.BENCH_MAX_WORKERS ?? CORES);
const N = Number(process.env.BENCH_RECEIPTS ?? 40);

async function main() {
  const names = (await readdir(receiptsDir)).filter((f) => f.endsWith('.jpg')).sort();
  const receipts = await Promise.all(names.map((n) => readFile(path.join(receiptsDir, n))));
  console.log(`bench:scale — ${N} receipts per run, 1…${MAX_WORKERS} worker processes with one OCR slot each, ${CORES} cores\n`);

  const deployment = await Deployment.start('postgres', { WORKER_CONCURRENCY: '1', LOG_LEVEL: 'warn' });
  const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
  await db.connect();
  try {
    const { visitor } = await signedUpSubscriber(deployment.baseUrl, deployment.services.databaseUrl, 'enterprise');

    const batch = async (count: number): Promise<number> => {
      const started = performance.now();
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const res = await visitor.upload(receipts[i % receipts.length]!, `scale-${i}.jpg`);
        if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
        ids.push(res.body.id as string);
      }
      for (;;) {
        const { rows } = await db.query<{ open: string; failed: string }>(
          `SELECT count(*) FILTER (WHERE status IN ('queued', 'processing')) AS open,
                  count(*) FILTER (WHERE status <> 'completed' AND status NOT IN ('queued', 'processing')) AS failed
             FROM uploads WHERE id = ANY($1)`,
          [ids],
        );
        if (Number(rows[0]!.failed) > 0) throw new Error(`${rows[0]!.failed} uploads did not complete`);
        if (Number(rows[0]!.open) === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return performance.now() - started;
    };

    const results: Array<{ workers: number; seconds: number; perSecond: number }> = [];
    for (let workers = 1; workers <= MAX_WORKERS; workers++) {
      if (workers > 1) await deployment.startWorker();
      // Every worker warm (OCR engine loaded) before the clock starts.
      await batch(workers * 2);
      const ms = await batch(N);
      results.push({ workers, seconds: ms / 1000, perSecond: N / (ms / 1000) });
      console.log(`${workers} worker(s): ${(ms / 1000).toFixed(1)} s, ${(N / (ms / 1000)).toFixed(3)} receipts/s  (load average ${os.loadavg()[0]!.toFixed(1)})`);
    }

    const base = results[0]!.perSecond;
    console.log('\n| workers | time | receipts/s | speed-up vs 1 worker | target (0.9 × workers) | met |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      const speedUp = r.perSecond / base;
      const target = 0.9 * r.workers;
      console.log(`| ${r.workers} | ${r.seconds.toFixed(1)} s | ${r.perSecond.toFixed(3)} | ${speedUp.toFixed(2)} | ${target.toFixed(2)} | ${speedUp >= target ? 'yes' : 'NO'} |`);
    }
    console.log(`\nWith containers: WORKER_CONCURRENCY=1 docker compose up -d --scale worker=${MAX_WORKERS}`);
  } finally {
    await db.end();
    await deployment.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
