// npm run bench:accuracy [-- --set world|sroie] [--limit N] [--engine local|documentai|vlm] [--concurrency N] [--verbose] [--dump DIR]
// --engine vlm reads with the vision model the VLM_* variables name (any OpenAI-compatible
// endpoint: VLM_BASE_URL=http://127.0.0.1:11434/v1 VLM_MODEL=qwen2.5vl:7b for a local Ollama).
// The extraction pipeline (decode → prepare → OCR → rules) on ../shared/receipts (40 SROIE scans)
// and ../shared/receipts-world (real-world photos, scans, PDFs) against their labels, per set,
// per tune/holdout half and per kind; and, in the same run, today's path before this work
// (tesseract.js in English only, no page clean-up, no second engine) as the baseline. Each side
// runs in a child process of its own, so its CPU time and peak memory are its own; the sides
// take turns going first, and time is compared as the median of per-receipt paired ratios.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { extractReceipt, sniffMimeType, type ReceiptRecord } from '@receipts/common';
import { ConfigError, parseConfig } from '@receipts/infra';
import { pino } from 'pino';
import { runPipeline } from '@receipts/worker';
import { createOcrEngine, vlmOptions, type OcrEngineOptions } from '../worker/src/ocr/create-ocr-engine.js';
import { dateMatches, half, loadWorldLabels, merchantMatches, totalMatches, worldAvailable, worldDir } from '../tests/support/receipts-world.js';
import { receiptsDir } from '../tests/support/service-process.js';
import { itemScores, loadLineItemLabels, matchItems, type ItemTally } from '../tests/support/line-items.js';
import { labelDate, labelTotal, loadLabels, MERCHANT_SIMILARITY, nameSimilarity } from '../tests/support/sroie.js';

type SetName = 'sroie' | 'world';
type Side = 'ours' | 'baseline';

/** One receipt to read and what its label says, in the same terms for both sets. */
interface Case {
  file: string;
  kind: string;
  half: 'tune' | 'holdout';
  currency: string;
  total(r: ReceiptRecord): boolean;
  date(r: ReceiptRecord): boolean;
  merchant(r: ReceiptRecord): boolean;
  secondary: Partial<Record<'subtotal' | 'tax' | 'tip', number>>;
}

interface Outcome {
  file: string;
  ms: number;
  readBy?: string;
  total: boolean;
  date: boolean;
  merchant: boolean;
  currency: boolean;
  currencyWithHint: boolean;
  secondary: Partial<Record<'subtotal' | 'tax' | 'tip', boolean>>;
  /** Against the hand-labelled line items, for the receipts that have them. */
  items?: ItemTally;
  error?: string;
}

interface ChildReport {
  outcomes: Outcome[];
  cpuSeconds: number;
  peakRssMb: number;
}

const { values: args } = parseArgs({
  options: {
    set: { type: 'string' },
    limit: { type: 'string' },
    engine: { type: 'string', default: 'local' },
    concurrency: { type: 'string', default: '2' },
    child: { type: 'string' },
    side: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    /** Write each receipt's recognised text to DIR/<set>/<file>.txt (ours), to tune rules on. */
    dump: { type: 'string' },
  },
});

const money = (a: number | null | undefined, b: number) => a != null && Math.abs(a - b) < 0.005;

async function casesOf(set: SetName): Promise<Case[]> {
  if (set === 'sroie') {
    return (await loadLabels()).map((label) => ({
      file: path.join(receiptsDir, label.file),
      kind: 'scan',
      half: half(label.file),
      currency: 'MYR',
      total: (r) => r.total === labelTotal(label),
      date: (r) => r.date === labelDate(label),
      merchant: (r) => nameSimilarity(r.merchantName, label.company) >= MERCHANT_SIMILARITY,
      secondary: {},
    }));
  }
  return (await loadWorldLabels()).map((label) => ({
    file: path.join(worldDir, label.file),
    kind: label.kind === 'screenshot' ? 'photo' : label.kind,
    half: half(label.file),
    currency: label.currency,
    total: (r) => totalMatches(r.total, label),
    date: (r) => dateMatches(r.date, label),
    merchant: (r) => merchantMatches(r.merchantName, label),
    secondary: Object.fromEntries((['subtotal', 'tax', 'tip'] as const).filter((k) => label[k] !== undefined).map((k) => [k, label[k]!])),
  }));
}

// ---- child: read one set with one side's engine, print a JSON report -------------------------

const benchConfig = () => parseConfig({ ...process.env, ROLES: 'api,worker', ...(args.engine ? { OCR_ENGINE: args.engine } : {}) });

async function runChild(set: SetName, side: Side): Promise<void> {
  const config = benchConfig();
  const concurrency = Number(args.concurrency);
  // A vision model's retries and failures are logged on stderr; stdout carries the report.
  const log = pino({ level: config.LOG_LEVEL, base: { role: 'bench' } }, pino.destination(2));
  const options: OcrEngineOptions =
    side === 'baseline'
      ? { engine: 'local', concurrency, langs: ['eng'], paddle: 'never', cleanUp: false }
      : { engine: config.ocrEngine, concurrency, langs: config.OCR_LANGS, paddle: config.OCR_PADDLE, vlm: vlmOptions(config, log), vlmSecondOpinion: config.VLM_SECOND_OPINION };
  const engine = createOcrEngine({ ...options, documentAi: undefined });
  const cases = (await casesOf(set)).slice(0, args.limit ? Number(args.limit) : undefined);
  const labelledItems = new Map(loadLineItemLabels().filter((l) => l.set === set).map((l) => [l.file, l.items]));
  const signal = new AbortController().signal;
  const noStep = async () => undefined;
  const read = async (file: string, currencyCode?: string) => {
    const bytes = await readFile(file);
    return runPipeline({ bytes, mimeType: sniffMimeType(bytes) ?? 'image/jpeg', currencyCode }, engine, noStep, signal);
  };
  // Start-up (workers, models) is paid once per process, not per receipt: PaddleOCR's models too,
  // which a worker loads on its first hard page and keeps.
  // A first file the engine cannot read has warmed it all the same; its own run below reports it.
  await read(cases[0]!.file).catch(() => undefined);
  await engine.warmUp?.();
  const cpuStart = process.cpuUsage();
  const outcomes: Outcome[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) {
        const c = cases[next]!;
        const i = next++;
        const started = performance.now();
        try {
          const result = await read(c.file);
          const ms = performance.now() - started;
          const r = result.receipt;
          if (args.dump && side === 'ours') {
            await mkdir(path.join(args.dump, set), { recursive: true });
            await writeFile(path.join(args.dump, set, `${path.basename(c.file)}.txt`), result.fullText);
          }
          const withHint = extractReceipt({ content: result.fullText, documents: [{ fields: {} }] }, { currencyCode: c.currency });
          outcomes[i] = {
            file: path.basename(c.file),
            ms,
            readBy: result.readBy,
            total: c.total(r),
            date: c.date(r),
            merchant: c.merchant(r),
            currency: (r.currency ?? 'USD') === c.currency,
            currencyWithHint: (withHint.currency ?? 'USD') === c.currency,
            secondary: Object.fromEntries(Object.entries(c.secondary).map(([k, v]) => [k, money(r[k as 'tax'], v)])),
            items: labelledItems.has(path.basename(c.file)) ? matchItems(r.items, labelledItems.get(path.basename(c.file))!) : undefined,
          };
        } catch (err) {
          const no = { total: false, date: false, merchant: false, currency: false, currencyWithHint: false, secondary: {} };
          outcomes[i] = { file: path.basename(c.file), ms: performance.now() - started, ...no, error: (err as Error).message };
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpuStart);
  await engine.close();
  const report: ChildReport = { outcomes, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`\n@@REPORT ${JSON.stringify(report)}\n`);
  process.exit(0);
}

// ---- parent: run the children, print the tables ----------------------------------------------

function child(set: SetName, side: Side): Promise<ChildReport> {
  const argv = [...process.execArgv, process.argv[1]!, '--child', set, '--side', side, '--concurrency', args.concurrency!, '--engine', args.engine!];
  if (args.limit) argv.push('--limit', args.limit);
  if (args.dump) argv.push('--dump', args.dump);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('@@REPORT '));
      if (code !== 0 || !line) reject(new Error(`${set}/${side} exited ${code}:\n${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice('@@REPORT '.length)) as ChildReport);
    });
  });
}

const pct = (k: number, n: number) => (n ? `${((k / n) * 100).toFixed(0)} %` : '–');
const frac = (k: number, n: number) => `${k}/${n} (${pct(k, n)})`;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
const median = (values: number[]) => quantile(values, 0.5);

function fieldRows(label: string, outcomes: Outcome[]): string {
  const n = outcomes.length;
  const count = (f: (o: Outcome) => boolean) => outcomes.filter(f).length;
  const all3 = count((o) => o.total && o.date && o.merchant);
  return `| ${label} | ${n} | ${pct(count((o) => o.total), n)} | ${pct(count((o) => o.date), n)} | ${pct(count((o) => o.merchant), n)} | ${pct(count((o) => o.currency), n)} | ${pct(count((o) => o.currencyWithHint), n)} | ${pct(all3, n)} |`;
}

function secondaryRow(label: string, outcomes: Outcome[]): string {
  const cells = (['subtotal', 'tax', 'tip'] as const).map((k) => {
    const labelled = outcomes.filter((o) => o.secondary[k] !== undefined);
    return frac(labelled.filter((o) => o.secondary[k]).length, labelled.length);
  });
  return `| ${label} | ${cells.join(' | ')} |`;
}

async function runParent(): Promise<void> {
  const sets: SetName[] = args.set ? [args.set as SetName] : ['sroie', 'world'];
  let config;
  try {
    config = benchConfig();
  } catch (err) {
    // `--engine vlm` without VLM_BASE_URL and VLM_MODEL, say: told before any child starts.
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
  const model = config.ocrEngine === 'vlm' ? ` (${config.VLM_MODEL} at ${new URL(config.VLM_BASE_URL!).host})` : '';
  console.log(`bench:accuracy — engine ${args.engine}${model}, concurrency ${args.concurrency}, each side in its own process`);
  for (const [i, set] of sets.entries()) {
    if (set === 'world' && !worldAvailable) {
      console.log(`\n## receipts-world: skipped — ${worldDir} is not there`);
      continue;
    }
    if (set === 'sroie' && !existsSync(path.join(receiptsDir, 'labels.json'))) {
      console.log(`\n## receipts (SROIE): skipped — ${receiptsDir} is not there`);
      continue;
    }
    // Sides take turns going first, so neither always meets a cold or a warm machine.
    const order: Side[] = i % 2 === 0 ? ['baseline', 'ours'] : ['ours', 'baseline'];
    const reports = {} as Record<Side, ChildReport>;
    for (const side of order) reports[side] = await child(set, side);
    const cases = await casesOf(set);
    const kindOf = new Map(cases.map((c) => [path.basename(c.file), c]));

    console.log(`\n## ${set === 'sroie' ? 'receipts (40 SROIE scans)' : 'receipts-world (real-world photos, scans, PDFs)'} — ${reports.ours.outcomes.length} receipts`);
    console.log('\n| side / slice | n | total | date | merchant | currency (no hint) | currency (user\'s) | all three |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const side of ['ours', 'baseline'] as const) {
      const outcomes = reports[side].outcomes;
      const name = side === 'ours' ? 'ours' : 'baseline (tesseract eng, no clean-up)';
      console.log(fieldRows(`**${name}** all`, outcomes));
      for (const h of ['tune', 'holdout'] as const) console.log(fieldRows(`${name} · ${h} half`, outcomes.filter((o) => kindOf.get(o.file)?.half === h)));
      const kinds = [...new Set(cases.map((c) => c.kind))];
      if (kinds.length > 1) for (const k of kinds) console.log(fieldRows(`${name} · ${k}`, outcomes.filter((o) => kindOf.get(o.file)?.kind === k)));
    }
    if (cases.some((c) => Object.keys(c.secondary).length > 0)) {
      console.log('\n| side (where labelled) | subtotal | tax | tip |');
      console.log('| --- | --- | --- | --- |');
      for (const side of ['ours', 'baseline'] as const) console.log(secondaryRow(side, reports[side].outcomes));
    }
    const labelled = (side: Side) => reports[side].outcomes.filter((o) => o.items);
    if (labelled('ours').length > 0) {
      console.log(`\n| line items (hand-labelled receipts) | n | precision | recall | F1 |`);
      console.log('| --- | --- | --- | --- | --- |');
      for (const side of ['ours', 'baseline'] as const) {
        for (const h of ['tune', 'holdout', undefined] as const) {
          const outcomes = labelled(side).filter((o) => !h || kindOf.get(o.file)?.half === h);
          const s = itemScores(outcomes.map((o) => o.items!));
          console.log(`| ${side} · ${h ?? 'all'} | ${outcomes.length} | ${s.precision.toFixed(2)} | ${s.recall.toFixed(2)} | ${s.f1.toFixed(2)} |`);
        }
      }
    }
    const readers = new Map<string, number>();
    for (const o of reports.ours.outcomes) readers.set(o.readBy ?? 'error', (readers.get(o.readBy ?? 'error') ?? 0) + 1);
    console.log(`\nours, read by: ${[...readers].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const errors = reports.ours.outcomes.filter((o) => o.error);
    if (errors.length) console.log(`ours, failed: ${errors.map((o) => `${o.file} (${o.error})`).join('; ')}`);

    if (args.verbose) {
      console.log('\n| receipt | ours: ms, reader, total/date/merchant/currency | baseline |');
      console.log('| --- | --- | --- |');
      const mark = (o: Outcome) => `${(o.ms / 1000).toFixed(1)} s ${o.readBy ?? o.error} ${[o.total, o.date, o.merchant, o.currency].map((b) => (b ? '✓' : '·')).join('')}`;
      reports.ours.outcomes.forEach((o, j) => console.log(`| ${o.file} | ${mark(o)} | ${mark(reports.baseline.outcomes[j]!)} |`));
    }

    const n = reports.ours.outcomes.length;
    const times = (side: Side) => reports[side].outcomes.map((o) => o.ms);
    const paired = reports.ours.outcomes.map((o, j) => o.ms / reports.baseline.outcomes[j]!.ms);
    console.log('\n| cost | ours | baseline | ratio |');
    console.log('| --- | --- | --- | --- |');
    const row = (label: string, a: number, b: number, unit: string, digits = 0) =>
      console.log(`| ${label} | ${a.toFixed(digits)} ${unit} | ${b.toFixed(digits)} ${unit} | ${(a / b).toFixed(2)} |`);
    row('time per receipt p50', quantile(times('ours'), 0.5), quantile(times('baseline'), 0.5), 'ms');
    row('time per receipt p95', quantile(times('ours'), 0.95), quantile(times('baseline'), 0.95), 'ms');
    console.log(`| time, median of per-receipt paired ratios | | | ${median(paired).toFixed(2)} |`);
    row('CPU-seconds per receipt', reports.ours.cpuSeconds / n, reports.baseline.cpuSeconds / n, 'CPU-s', 2);
    row('peak RSS of the process', reports.ours.peakRssMb, reports.baseline.peakRssMb, 'MB');
  }
  process.exit(0);
}

if (args.child) await runChild(args.child as SetName, (args.side ?? 'ours') as Side);
else await runParent();
