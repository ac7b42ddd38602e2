// npm run bench:export — GET /api/export of 100 000 stored receipts (5 items each) from a real
// api process, against a bare exceljs streaming writer writing the same rows read from the same
// database, in the same run. The two alternate BENCH_RUNS times (default 5), taking turns to go
// first, so a busy machine weighs on both alike; prints every time, the ratio of the best times
// and the median of the runs' ratios (target ≤ 1.2, decided on the median's interval:
// paired-verdict.ts), the CPU-s each side used (the api process's
// threads against the bench's own while it writes; steadier than wall time here) and the api's peak
// RSS over all its exports (target < 300 MB).
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { freePort, provisionServices, signUpUnconfirmed, startServiceProcess, Visitor } from '#test-support/harness';
import { describeVerdict, median, pairedRatios } from './paired-verdict.js';
import { cpuSecondsOf } from './process-cpu.js';

const N = Number(process.env.BENCH_RECEIPTS ?? 100_000);
// Five: the fewest runs whose median interval reaches 90 % (paired-verdict.ts).
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGE = 1000;
const ITEMS = 5;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;


/**
 * The download as a browser does it, straight to a file through node:http: fetch's web streams
 * would cost the client (on the same two cores) more than the api spends on the export.
 */
async function download(visitor: Visitor, url: string, file: string): Promise<http.IncomingMessage> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${visitor.baseUrl}${url}`, { headers: visitor.headers() }, resolve).on('error', reject);
  });
  if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode}`);
  await pipeline(res, createWriteStream(file));
  return res;
}

/** VmHWM (peak) and VmRSS (now) of a process, in kB. */
async function memoryOf(pid: number): Promise<{ peak: number; now: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { peak: field('VmHWM'), now: field('VmRSS') };
}

/** N completed uploads with their receipts, generated inside PostgreSQL: 9 in 10 valid, 5 items each. */
async function seed(client: pg.Client, userId: string): Promise<void> {
  await client.query(
    `INSERT INTO uploads (id, user_id, workspace_id, filename, mime_type, size, sha256, lane, status, progress, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $1, 'receipt-' || g || '.jpg', 'image/jpeg', 250000, md5(g::text), 'express', 'completed', 100,
            now() - ($2 - g) * interval '1 second', now()
     FROM generate_series(1, $2) g`,
    [userId, N],
  );
  await client.query(
    `INSERT INTO receipts (upload_id, merchant_name, date, time, currency, subtotal, tax, tip, discount, total,
                           payment_method, category, receipt_number, tin, quality, items, raw_text, issues, valid)
     SELECT u.id, 'MERCHANT ' || (u.g % 997) || ' SDN BHD', to_char(current_date - (u.g % 700)::int, 'YYYY-MM-DD'), '12:34:56',
            (ARRAY['USD','EUR','MYR','JPY'])[1 + u.g % 4], 40.00, 2.40, NULL, 0, 42.40,
            'cash', (ARRAY['grocery','restaurant','gas','retail','pharmacy','other'])[1 + u.g % 6], 'CS' || lpad(u.g::text, 8, '0'), '001125220352',
            0.6 + (u.g % 40) / 100.0,
            (SELECT jsonb_agg(jsonb_build_object('description', 'ITEM ' || i || ' OF RECEIPT ' || u.g, 'qty', i, 'unitPrice', 8.00 / i, 'amount', 8.00))
               FROM generate_series(1, ${ITEMS}) i),
            repeat('RECEIPT TEXT LINE ' || u.g || E'\\n', 12),
            CASE WHEN u.g % 10 = 0 THEN '["Date out of reasonable range"]'::jsonb ELSE '[]'::jsonb END,
            u.g % 10 <> 0
     FROM (SELECT id, row_number() OVER (ORDER BY created_at)::int AS g FROM uploads WHERE user_id = $1) u`,
    [userId],
  );
  await client.query('ANALYZE uploads; ANALYZE receipts');
}

interface Row {
  filename: string;
  merchant_name: string | null;
  date: string | null;
  time: string | null;
  currency: string;
  subtotal: string | null;
  tax: string | null;
  tip: string | null;
  discount: string | null;
  total: string | null;
  payment_method: string | null;
  category: string;
  receipt_number: string | null;
  tin: string | null;
  quality: number;
  items: Array<{ description: string; qty: number; unitPrice: number; amount: number }>;
  raw_text: string;
  at: string;
  id: string;
}

/**
 * The baseline: the same receipts read page by page from the same database and written by a
 * bare exceljs streaming writer, one plain row per receipt (same 96 columns), no styles.
 */
async function bareExceljs(client: pg.Client, userId: string, file: string): Promise<number> {
  const started = performance.now();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = workbook.addWorksheet('Receipts');
  let after: { at: string; id: string } | null = null;
  let rows = 0;
  for (;;) {
    const { rows: page }: { rows: Row[] } = await client.query(
      `SELECT u.filename, r.merchant_name, r.date, r.time, r.currency, r.subtotal, r.tax, r.tip, r.discount, r.total,
              r.payment_method, r.category, r.receipt_number, r.tin, r.quality, r.items, left(r.raw_text, 201) AS raw_text,
              u.created_at::text AS at, u.id
       FROM receipts r JOIN uploads u ON u.id = r.upload_id
       WHERE u.user_id = $1 ${after ? 'AND (u.created_at, u.id) > ($3::timestamptz, $4::uuid)' : ''}
       ORDER BY u.created_at, u.id LIMIT $2`,
      after ? [userId, PAGE, after.at, after.id] : [userId, PAGE],
    );
    for (const r of page) {
      const values: Array<string | number | null> = [
        r.filename, r.merchant_name, r.date, r.time, r.currency,
        r.subtotal && Number(r.subtotal), r.tax && Number(r.tax), r.tip && Number(r.tip), r.discount && Number(r.discount), r.total && Number(r.total),
        r.payment_method, r.category, r.receipt_number, r.tin, r.quality, r.raw_text,
      ];
      for (const item of r.items) values.push(item.description, item.qty, item.unitPrice, item.amount);
      sheet.addRow(values).commit();
    }
    rows += page.length;
    if (page.length < PAGE) break;
    after = { at: page.at(-1)!.at, id: page.at(-1)!.id };
  }
  sheet.commit();
  await workbook.commit();
  if (rows !== N) throw new Error(`baseline wrote ${rows} rows, expected ${N}`);
  return performance.now() - started;
}

async function main() {
  console.log(`bench:export — ${N.toLocaleString('en')} stored receipts, ${ITEMS} items each, ${os.availableParallelism()} cores\n`);
  const services = await provisionServices();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'receipts-bench-'));
  const api = await startServiceProcess('api', {
    ROLES: 'api',
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    REDIS_AUTOSTART: 'false',
    QUEUE_PREFIX: services.prefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  const client = new pg.Client({ connectionString: services.databaseUrl });
  await client.connect();
  try {
    const visitor = new Visitor(`http://127.0.0.1:${api.port}`);
    const email = `bench-export-${process.pid}@example.test`;
    await signUpUnconfirmed(visitor, services.databaseUrl, email, 'Bench1234');
    const { rows: [user] } = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);

    let t = performance.now();
    await seed(client, user!.id);
    // A live database has its statistics, hint bits and a clean buffer cache; a bulk load has none
    // of them until autovacuum and the checkpointer pass, and whichever side ran first would pay.
    await client.query('VACUUM ANALYZE uploads, receipts');
    await client.query('CHECKPOINT');
    console.log(`seeded and vacuumed in ${sec(performance.now() - t)}`);

    // A small export first, so neither side pays for cold code paths.
    await (await visitor.request('/api/export?format=xlsx&ids=' + (await client.query('SELECT id FROM receipts LIMIT 1')).rows[0].id)).arrayBuffer();
    const before = await memoryOf(api.proc.pid!);

    const exportFile = path.join(dataDir, 'export.xlsx');
    const bareFile = path.join(dataDir, 'bare.xlsx');
    const exportMs: number[] = [];
    const bareMs: number[] = [];
    let rows = '';
    const apiCpu: Array<{ all: number; main: number }> = [];
    const bareCpu: number[] = [];
    const viaApi = async () => {
      const started = performance.now();
      const cpu = cpuSecondsOf(api.proc.pid!);
      const res = await download(visitor, '/api/export?format=xlsx&preset=generic', exportFile);
      exportMs.push(performance.now() - started);
      const after = cpuSecondsOf(api.proc.pid!);
      apiCpu.push({ all: after.all - cpu.all, main: after.main - cpu.main });
      rows = `${res.headers['x-export-rows']} + ${res.headers['x-export-issues']} rows`;
    };
    const viaBare = async () => {
      const cpu = process.cpuUsage();
      bareMs.push(await bareExceljs(client, user!.id, bareFile));
      const used = process.cpuUsage(cpu);
      bareCpu.push((used.user + used.system) / 1e6);
    };
    for (let run = 1; run <= RUNS; run++) {
      // Each side goes first every other run, so neither always meets the database fresh.
      if (run % 2 === 1) {
        await viaApi();
        await viaBare();
      } else {
        await viaBare();
        await viaApi();
      }
      const cpu = apiCpu.at(-1)!;
      console.log(
        `run ${run}: export ${sec(exportMs.at(-1)!)}, bare ${sec(bareMs.at(-1)!)}, ratio ${(exportMs.at(-1)! / bareMs.at(-1)!).toFixed(2)}  ` +
          `(CPU-s: api ${cpu.all.toFixed(1)}, of it the event loop's thread ${cpu.main.toFixed(1)}; bare ${bareCpu.at(-1)!.toFixed(1)}; load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
    const memory = await memoryOf(api.proc.pid!);

    const best = (times: number[]) => Math.min(...times);
    const ratio = best(exportMs) / best(bareMs);
    console.log(`\nGET /api/export (xlsx, ${rows}, three sheets, styled), best of ${RUNS}: ${sec(best(exportMs))}  (${((await stat(exportFile)).size / 1e6).toFixed(1)} MB file)`);
    console.log(`bare exceljs streaming writer, same rows from the same database, best of ${RUNS}: ${sec(best(bareMs))}  (${((await stat(bareFile)).size / 1e6).toFixed(1)} MB file)`);
    console.log(`ratio export / bare, best times: ${ratio.toFixed(2)}  (target ≤ 1.2: ${ratio <= 1.2 ? 'met' : 'NOT met'})`);
    // Each run's pair ran back to back under the same load: their ratio is steadier than the best times'.
    const paired = pairedRatios(exportMs, bareMs);
    console.log(`ratio export / bare, median of the ${RUNS} runs' ratios: ${describeVerdict(paired, { atMost: 1.2 }, (x) => x.toFixed(2))}`);
    // CPU-s drift less than wall time on a shared machine: the same work, whatever else runs.
    const cpuPaired = pairedRatios(
      apiCpu.map((cpu) => cpu.all),
      bareCpu,
    );
    console.log(`CPU-s export (api process) / bare, median of the ${RUNS} runs' ratios: ${median(cpuPaired).toFixed(2)}`);
    console.log(`api peak RSS: ${mb(memory.peak)} (${mb(before.now)} before the first export)  (target < 300 MB: ${memory.peak < 300 * 1024 ? 'met' : 'NOT met'})`);
  } catch (err) {
    console.error(`the api said:\n${api.output()}`);
    throw err;
  } finally {
    await client.end();
    await api.stop('SIGTERM');
    await services.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
