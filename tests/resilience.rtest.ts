// npm run test:resilience — 1 api and 3 worker processes of the built code on a PostgreSQL and a
// Redis of this test's own, with faults injected mid-batch: a worker SIGKILLed, Redis killed and
// restarted empty, PostgreSQL stopped, a worker SIGTERMed. After each, every upload must end
// completed exactly once or failed with a message and its quota unit back. Prints what was
// injected and what was lost.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedUpSubscriber } from './support/accounts.js';
import { freePort } from './support/free-port.js';
import { PrivatePostgres, PrivateRedis } from './support/private-services.js';
import { until } from './support/until.js';
import { madeUpReceipts } from './support/printed-receipt.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { Visitor } from './support/visitor.js';

interface Outcome {
  injected: string;
  uploads: number;
  /** Uploads a worker was processing when the fault hit. */
  inFlightAtFault: number;
  completed: number;
  failedWithMessage: number;
  refused503: number;
  lost: number;
  chargedWrongly: number;
}

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let dataDir: string;
let env: Record<string, string>;
let api: ServiceProcess;
let baseUrl: string;
const workers: ServiceProcess[] = [];
let db: pg.Pool;
let receipts: Buffer[];
const outcomes: Outcome[] = [];
let nextReceipt = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startWorker(): Promise<ServiceProcess> {
  const worker = await startServiceProcess('worker', env);
  workers.push(worker);
  return worker;
}

/** A signed-in subscriber of its own per scenario, so its quota tells that scenario's story. */
async function subscriber(): Promise<{ visitor: Visitor; userId: string }> {
  const { visitor, email } = await signedUpSubscriber(baseUrl, postgres.url, 'business');
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  return { visitor, userId: rows[0]!.id };
}

/** Sends `n` receipts; returns the accepted upload ids. */
async function sendBatch(visitor: Visitor, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const bytes = receipts[nextReceipt++ % receipts.length]!;
    const res = await visitor.upload(bytes, `receipt-${i}.jpg`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    ids.push(res.body.id as string);
  }
  return ids;
}

async function statusCounts(ids: string[]): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: string }>(
    'SELECT status, count(*) AS n FROM uploads WHERE id = ANY($1) GROUP BY status',
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Waits on the database's record, polled gently while the workers are busy. */
const slowly = { timeoutMs: 240_000, everyMs: 250 };

async function waitAllEnded(ids: string[], what: string): Promise<void> {
  await until(() => statusCounts(ids), (c) => !c.queued && !c.processing, `${what}: every upload to end`, slowly);
}

/** What became of a batch, from PostgreSQL: the record the user sees. */
async function account(injected: string, userId: string, ids: string[], inFlightAtFault = 0, refused503 = 0): Promise<Outcome> {
  const { rows } = await db.query<{ id: string; status: string; error: string | null; refunded: boolean; receipts: string }>(
    `SELECT u.id, u.status, u.error, u.quota_refunded AS refunded,
            (SELECT count(*) FROM receipts r WHERE r.upload_id = u.id) AS receipts
       FROM uploads u WHERE u.id = ANY($1)`,
    [ids],
  );
  const completed = rows.filter((r) => r.status === 'completed' && Number(r.receipts) === 1 && !r.refunded).length;
  const failedWithMessage = rows.filter((r) => r.status === 'failed' && Boolean(r.error) && r.refunded && Number(r.receipts) === 0).length;
  const charged = rows.filter((r) => !r.refunded).length;
  const { rows: usage } = await db.query<{ used: number }>('SELECT used FROM quota_usage WHERE subject = $1', [`workspace:${userId}`]);
  const used = usage.reduce((sum, u) => sum + u.used, 0);
  const { rows: all } = await db.query<{ n: string }>('SELECT count(*) AS n FROM uploads WHERE user_id = $1', [userId]);
  return {
    injected,
    uploads: ids.length,
    inFlightAtFault,
    completed,
    failedWithMessage,
    refused503,
    // Anything not accounted for: stuck, duplicated, a failure without its message or refund, rows nobody asked for.
    lost: ids.length - completed - failedWithMessage + Math.abs(Number(all[0]!.n) - ids.length),
    chargedWrongly: Math.abs(used - charged),
  };
}

function record(outcome: Outcome): void {
  outcomes.push(outcome);
  expect(outcome.lost, JSON.stringify(outcome)).toBe(0);
  expect(outcome.chargedWrongly, JSON.stringify(outcome)).toBe(0);
  expect(outcome.completed + outcome.failedWithMessage).toBe(outcome.uploads);
}

describe('resilience: 1 api + 3 workers on private PostgreSQL and Redis', () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
    db = new pg.Pool({ connectionString: postgres.url, max: 3 });
    db.on('error', () => undefined);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'receipts-resilience-'));
    receipts = await madeUpReceipts(20);
    env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_AUTOSTART: 'false',
      QUEUE_PREFIX: 'resilience',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      WORKER_CONCURRENCY: '1',
      JOB_LOCK_MS: '4000',
      STALLED_CHECK_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: '1500',
      RECOVERY_SWEEP_MS: '2000',
      WORKER_HEALTH_PORT: '0',
    };
    api = await startServiceProcess('api', { ...env, ROLES: 'api' });
    baseUrl = `http://127.0.0.1:${api.port}`;
    for (let i = 0; i < 3; i++) await startWorker();
  });

  afterAll(async () => {
    if (outcomes.length > 0) {
      console.log('\nresilience — what was injected and what was lost');
      console.table(outcomes.map((o) => ({ ...o })));
    }
    await Promise.allSettled([api?.stop('SIGKILL'), ...workers.map((w) => w.stop('SIGKILL'))]);
    await db?.end();
    await Promise.allSettled([postgres?.stop(), redis?.stop()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // A test that fails while a service is halted must not fail the tests after it as well.
  afterEach(() => Promise.all([redis.ensureRunning(), postgres.ensureRunning()]));

  it('a worker SIGKILLed mid-batch: all 60 uploads complete exactly once, none charged twice', async () => {
    const { visitor, userId } = await subscriber();
    const ids = await sendBatch(visitor, 60);
    await until(() => statusCounts(ids), (c) => (c.completed ?? 0) >= 6, 'a few receipts before the kill', slowly);
    const victim = workers.shift()!;
    // With 50-odd jobs waiting, each single-slot worker always holds one.
    const inFlight = (await statusCounts(ids)).processing ?? 0;
    expect(inFlight).toBeGreaterThan(0);
    await victim.stop('SIGKILL');
    await waitAllEnded(ids, 'SIGKILL');
    const outcome = await account('SIGKILL 1 of 3 workers mid-batch', userId, ids, inFlight);
    expect(outcome.completed).toBe(60);
    record(outcome);
    await startWorker();
  });

  it('Redis killed and restarted empty mid-batch: every upload ends completed or failed with a message, none stuck', async () => {
    const { visitor, userId } = await subscriber();
    const ids = await sendBatch(visitor, 24);
    await until(() => statusCounts(ids), (c) => (c.completed ?? 0) >= 3, 'a few receipts before the restart', slowly);
    const inFlight = (await statusCounts(ids)).processing ?? 0;
    await redis.halt();

    // The producer fails fast while Redis is away: 503, no upload row, no quota taken. (Rows are
    // counted, not "lost": a job in flight may still finish in between.)
    const rowsOf = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM uploads WHERE user_id = $1', [userId])).rows[0]!.n);
    const before = await rowsOf();
    const refused = await visitor.upload(receipts[0]!, 'during-outage.jpg');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    expect(await rowsOf()).toBe(before);
    expect((await account('', userId, ids)).chargedWrongly).toBe(0);

    await sleep(2_000);
    await redis.resume();
    await waitAllEnded(ids, 'Redis restart');
    record(await account('Redis killed (no persistence) and restarted mid-batch', userId, ids, inFlight, 1));
    // The service took uploads again without a restart of any process.
    const again = await sendBatch(visitor, 1);
    await waitAllEnded(again, 'upload after the Redis restart');
    expect(await statusCounts(again)).toEqual({ completed: 1 });
  });

  it('PostgreSQL stopped: the api answers 503 while it is down and recovers without a restart', async () => {
    const { visitor, userId } = await subscriber();
    const ids = await sendBatch(visitor, 9);
    const { processing: inFlight = 0 } = await until(() => statusCounts(ids), (c) => (c.processing ?? 0) >= 2, 'jobs in flight', slowly);
    await postgres.halt();
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ database: false, redis: true });
    const refused = await visitor.upload(receipts[1]!, 'during-outage.jpg');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    await sleep(3_000);
    await postgres.resume();
    await until(() => fetch(`${baseUrl}/readyz`), (r) => r.status === 200, 'readyz after PostgreSQL is back', { timeoutMs: 60_000, everyMs: 250 });
    await waitAllEnded(ids, 'PostgreSQL outage');
    record(await account('PostgreSQL stopped for 3 s with jobs in flight', userId, ids, inFlight, 1));
    expect((await statusCounts(ids)).completed).toBe(9);
    expect(api.proc.exitCode).toBeNull();
    for (const w of workers) expect(w.proc.exitCode).toBeNull();
  });

  it('a worker SIGTERMed with active jobs: they complete or another worker picks them up', async () => {
    const { visitor, userId } = await subscriber();
    const ids = await sendBatch(visitor, 12);
    const { processing: inFlight = 0 } = await until(() => statusCounts(ids), (c) => (c.processing ?? 0) >= 3, 'every worker busy', slowly);
    const drained = workers.shift()!;
    const code = await drained.stop('SIGTERM');
    // How it ended, and what it printed, say why when it did not exit cleanly.
    expect({ code, signal: drained.proc.signalCode }, drained.output().slice(-6000)).toEqual({ code: 0, signal: null });
    await waitAllEnded(ids, 'SIGTERM');
    const outcome = await account('SIGTERM 1 of 3 workers with active jobs', userId, ids, inFlight);
    expect(outcome.completed).toBe(12);
    record(outcome);
  });
});
