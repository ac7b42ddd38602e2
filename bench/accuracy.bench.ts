// npm run bench:accuracy [-- --set sroie,sroie-more,world,more] [--limit N] [--engine local|documentai|vlm] [--concurrency N]
//                         [--tesseract wasm,native] [--paddle first,photos] [--skip-baseline] [--skip-program] [--verbose] [--dump DIR]
// --engine vlm reads with the vision model the VLM_* variables name (any OpenAI-compatible
// endpoint: VLM_BASE_URL=http://127.0.0.1:11434/v1 VLM_MODEL=qwen2.5vl:7b for a local Ollama).
// The extraction pipeline (decode → prepare → OCR → rules) on every labelled set of ../shared, read
// by tests/support/receipt-sets.ts — `sroie` (receipts/, 40 SROIE scans), `sroie-more`
// (receipts-sroie-more/, 160 more), `world` (receipts-world/, real-world photos, scans, PDFs) and
// `more` (receipts-more/, further photos and scans) — against their labels; and, in the same run,
// today's path before this work (tesseract.js in English only, no page clean-up, no second engine)
// as the baseline. `--set` names the sets (comma-separated; default: every one that is there, a
// missing one is said to be skipped), `--limit N` reads the first N receipts of each. Per side it
// prints the accuracy table bench:rules prints too (bench/accuracy-table.ts): per set, per half
// (tune / report, by a hash of each file's bytes: rules are tuned on the tune half only) and per
// kind, every field, line items and "ready for export" — the pipeline's own verdict, the date's
// age aside since the sets are years old — as how often a ready receipt is right and how many are
// ready; then that per half and set on a line, and the currency had the user picked the label's.
// `--tesseract` names the tesseract backends to run the pipeline with (one side each; default: the
// one OCR_TESSERACT picks on this host); with two, it prints where their fields agree. `--paddle` names
// OCR_PADDLE policies the same way (a side each, e.g. `first,photos`), with the CPU of the first ÷ the
// second per set and the median of those paired ratios. Each side
// runs in a child process of its own per set, so its CPU time (the whole process tree: decoder
// processes and native tesseract included) and peak memory are its own; the sides take turns going
// first, and time is compared as the median of per-receipt paired ratios. The CPU table also runs
// the tesseract program itself on every image (`--psm 6 -l eng`, OMP_THREAD_LIMIT=1) as the
// reference, with its own models (Debian's: the small "fast" ones) and with the pipeline's; and,
// since runs minutes apart drift on a shared machine, each backend and the program taking turns
// image by image (one receipt at a time; the program from a small process of its own): the ratio
// of their CPU-s in the same minutes. `--verbose` lists every receipt; `--dump DIR` writes each
// receipt's recognised document (the first backend's) to DIR/<set>/<file>.json, which
// `npm run bench:rules` reads (OCR_DUMP=DIR) to try extraction rules without OCR.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { extractReceipt, isExportValid, sniffMimeType, type ReceiptRecord, type RecognizedDocument } from '@receipts/common';
import { ConfigError, configSchema, parseConfig } from '@receipts/infra';
import { pino } from 'pino';
// The built worker, as the service runs it (its sources through tsx pay for helpers the build does not emit).
import { chooseTesseract, createOcrEngine, LstmTessdata, runPipeline, vlmOptions, type OcrEngineOptions, type PaddleMode, type TesseractBackend } from '@receipts/worker';
import { accuracyRows, readiness, TABLE_HEADER, type ScoredReceipt } from './accuracy-table.js';
import { describeVerdict, pairedRatios } from './paired-verdict.js';
import { processTreeCpuSeconds, reapedCpuSeconds } from './process-cpu.js';
import {
  checkReceipt,
  HALVES,
  loadSet,
  matchItems,
  SET_DIRS,
  setAvailable,
  SETS,
  type FieldChecks,
  type ItemTally,
  type LabelledReceipt,
  type SetName,
} from '#test-support/receipt-data';

/**
 * The pipeline with a tesseract backend, the baseline, or the tesseract program alone as the CPU
 * reference: with its own (Debian's) models, or with the pipeline's (the npm models' LSTM parts).
 */
type Side = `ours:${TesseractBackend}` | `ours:${TesseractBackend}:${PaddleMode}` | 'baseline' | CliSide | PairedSide;
/** The pipeline and the tesseract program taking turns receipt by receipt (CPU only). */
type PairedSide = `paired:${TesseractBackend}`;
type CliSide = 'cli:own' | 'cli:same';
const CLI_SIDES: CliSide[] = ['cli:own', 'cli:same'];
/** Fields compared between two sides' readings of the same receipt. */
const AGREEMENT_FIELDS = ['total', 'date', 'merchantName', 'currency', 'subtotal', 'tax', 'receiptNumber', 'items'] as const;

const SET_TITLES: Record<SetName, string> = {
  sroie: 'receipts (SROIE scans)',
  'sroie-more': 'receipts-sroie-more (more SROIE scans)',
  world: 'receipts-world (real-world photos, scans, PDFs)',
  more: 'receipts-more (shop and restaurant photos, flatbed scans)',
};

interface Outcome {
  set: SetName;
  file: string;
  ms: number;
  readBy?: string;
  /** What was right against the label (checkReceipt); a field the label does not give is absent. Empty for the program alone. */
  checks: FieldChecks;
  /** Ready for export: the pipeline's verdict on its own issues, "Date out of reasonable range" aside. */
  ready: boolean;
  /** The currency right had the user picked the label's (a hint); absent where the label has none. */
  currencyWithHint?: boolean;
  /** Against the labelled line items, for the receipts that have them. */
  items?: ItemTally;
  /** What was read, to compare sides field by field (items as their count). */
  fields?: Partial<Record<(typeof AGREEMENT_FIELDS)[number], string | number | null>>;
  error?: string;
}

/** A receipt's key across sides (and sets: the same file name may turn up in two of them). */
const keyOf = (o: { set: string; file: string }) => `${o.set}/${o.file}`;

interface ChildReport {
  outcomes: Outcome[];
  cpuSeconds: number;
  peakRssMb: number;
  /** Paired sides: CPU-s of the pipeline and of the program, per image, and the pipeline's by step. */
  pairs?: Array<{ file: string; ours: number; program: number; steps: StepCpu; readBy?: string }>;
}

/** A receipt's CPU-s (process tree) by pipeline step: what follows the step before, up to this one's end. */
const CPU_STEPS = ['decode', 'prepare', 'recognise', 'extract'] as const;
type StepCpu = Record<(typeof CPU_STEPS)[number], number>;
/** The pipeline's progress step that ends each of them (runPipeline's onStep); what follows 'recognized' is extraction. */
const STEP_ENDS: Partial<Record<string, (typeof CPU_STEPS)[number]>> = { decoded: 'decode', prepared: 'prepare', recognized: 'recognise' };

const { values: args } = parseArgs({
  options: {
    /** Comma-separated set names (SETS); default every set that is there. */
    set: { type: 'string' },
    /** The first N receipts of each set. */
    limit: { type: 'string' },
    engine: { type: 'string', default: 'local' },
    concurrency: { type: 'string', default: '2' },
    /** Comma-separated tesseract backends (wasm, native), one side each. */
    tesseract: { type: 'string' },
    /** Comma-separated OCR_PADDLE policies, one side each. */
    paddle: { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
    'skip-program': { type: 'boolean', default: false },
    child: { type: 'string' },
    side: { type: 'string' },
    /** Internal: run the program on the images named on stdin (see programRunner). */
    'program-runner': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    /** Write each receipt's recognised document to DIR/<set>/<file>.json (ours, the first backend), as bench:rules reads it. */
    dump: { type: 'string' },
  },
});

/** A set's labelled receipts, the first --limit of them. */
const receiptsOf = (set: SetName) => loadSet(set).slice(0, args.limit ? Number(args.limit) : undefined);

/** A receipt the pipeline could not read: every labelled field wrong, not ready, every labelled item missed. */
const BLANK: ReceiptRecord = extractReceipt({ content: '', documents: [{ fields: {} }] });
function unread(label: LabelledReceipt, ms: number, error: string): Outcome {
  const checks = Object.fromEntries(Object.keys(checkReceipt(BLANK, label)).map((k) => [k, false])) as FieldChecks;
  const items = label.items ? { tp: 0, fp: 0, fn: label.items.length } : undefined;
  return { set: label.set, file: label.file, ms, checks, ready: false, currencyWithHint: label.currency ? false : undefined, items, error };
}

// ---- child: read one set with one side's engine, print a JSON report -------------------------

const benchConfig = () => parseConfig({ ...process.env, ROLES: 'api,worker', ...(args.engine ? { OCR_ENGINE: args.engine } : {}) });

/** A side's engine, and how it reads a file through the whole pipeline, warmed on the set's first file. */
async function warmPipeline(side: Side, firstFile: string, concurrency: number) {
  const config = benchConfig();
  // A vision model's retries and failures are logged on stderr; stdout carries the report.
  const log = pino({ level: config.LOG_LEVEL, base: { role: 'bench' } }, pino.destination(2));
  const options: OcrEngineOptions =
    side === 'baseline'
      ? { engine: 'local', concurrency, langs: ['eng'], paddle: 'never', cleanUp: false, tesseract: 'wasm' }
      : {
          engine: config.ocrEngine,
          concurrency,
          langs: config.OCR_LANGS,
          paddle: (side.split(':')[2] as PaddleMode | undefined) ?? config.OCR_PADDLE,
          tesseract: side.split(':')[1] === 'native' ? 'native' : 'wasm',
          vlm: vlmOptions(config, log),
          vlmSecondOpinion: config.VLM_SECOND_OPINION,
        };
  const engine = createOcrEngine({ ...options, documentAi: undefined });
  const signal = new AbortController().signal;
  const noStep = async () => undefined;
  const read = async (file: string, currencyCode?: string, onStep: (step: string) => Promise<void> = noStep) => {
    const bytes = await readFile(file);
    return runPipeline({ bytes, mimeType: sniffMimeType(bytes) ?? 'image/jpeg', currencyCode }, engine, onStep, signal);
  };
  // Start-up (workers, models) is paid once per process, not per receipt: PaddleOCR's models and
  // OSD's worker too (engine.warmUp), which a worker loads on its first page that needs them and keeps.
  // A first file the engine cannot read has warmed it all the same; its own run below reports it.
  await read(firstFile).catch(() => undefined);
  await engine.warmUp?.();
  return { engine, read };
}

/** The recognised document as bench:rules reads it back (DIR/<set>/<file>.json); a failed reading as its error. */
async function dumpDocument(set: SetName, file: string, doc: RecognizedDocument | { error: string }): Promise<void> {
  await mkdir(path.join(args.dump!, set), { recursive: true });
  await writeFile(path.join(args.dump!, set, `${file}.json`), JSON.stringify(doc));
}

async function runChild(set: SetName, side: Side): Promise<void> {
  if (side === 'cli:own' || side === 'cli:same') return runCliChild(set, side);
  if (side.startsWith('paired:')) return runPairedChild(set, side as PairedSide);
  const concurrency = Number(args.concurrency);
  const labels = receiptsOf(set);
  const { engine, read } = await warmPipeline(side, labels[0]!.path, concurrency);
  const dump = args.dump && side !== 'baseline';
  const cpuStart = processTreeCpuSeconds();
  const outcomes: Outcome[] = new Array(labels.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < labels.length) {
        const label = labels[next]!;
        const i = next++;
        const started = performance.now();
        let result;
        try {
          result = await read(label.path);
        } catch (err) {
          outcomes[i] = unread(label, performance.now() - started, (err as Error).message);
          if (dump) await dumpDocument(set, label.file, { error: (err as Error).message });
          continue;
        }
        const ms = performance.now() - started;
        const r = result.receipt;
        const doc: RecognizedDocument = { content: result.fullText, lines: result.lines, readBy: result.readBy, documents: [{ fields: {} }] };
        if (dump) await dumpDocument(set, label.file, doc);
        // The same recognition had the user picked the label's currency (the engine itself reads without it).
        const withHint = label.currency ? extractReceipt(doc, { currencyCode: label.currency }) : undefined;
        // The sets are years old: "Date out of reasonable range" would flag every one of them.
        const issues = result.issues.filter((issue) => issue.code !== 'dateOutOfRange');
        outcomes[i] = {
          set,
          file: label.file,
          ms,
          readBy: result.readBy,
          checks: checkReceipt(r, label),
          ready: isExportValid(r, issues),
          currencyWithHint: withHint ? (withHint.currency ?? 'USD') === label.currency : undefined,
          items: label.items ? matchItems(r.items, label.items) : undefined,
          fields: { ...Object.fromEntries(AGREEMENT_FIELDS.map((k) => [k, (r[k as keyof ReceiptRecord] as string | number | undefined) ?? null])), items: r.items.length },
        };
      }
    }),
  );
  const cpuSeconds = processTreeCpuSeconds() - cpuStart;
  await engine.close();
  const report: ChildReport = { outcomes, cpuSeconds, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`\n@@REPORT ${JSON.stringify(report)}\n`);
  process.exit(0);
}

/** Images the tesseract program reads as they are (not PDFs or HEIC). */
const CLI_FORMATS = new Set(['image/jpeg', 'image/png', 'image/tiff', 'image/gif', 'image/webp']);
const programReads = async (file: string) => CLI_FORMATS.has(sniffMimeType(await readFile(file)) ?? '');

/** The reference program on one image, as someone would run it by hand (`--psm 6 -l eng`, one thread); `models` picks other models than its own. */
function runProgram(file: string, models: string[] = []) {
  return spawnSync('tesseract', [file, 'stdout', ...models, '--psm', '6', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: 'ignore', timeout: 120_000 });
}

/**
 * The reference: the tesseract program on each image file, one after another, as someone would
 * run it by hand (`--psm 6 -l eng`, one thread), with its own models or the pipeline's; only the
 * CPU counts.
 */
async function runCliChild(set: SetName, side: CliSide): Promise<void> {
  const labels = receiptsOf(set);
  const outcomes: Outcome[] = [];
  const models: string[] = [];
  if (side === 'cli:same') {
    const tessdata = new LstmTessdata(['eng']);
    await tessdata.ready(['eng']);
    models.push('--tessdata-dir', tessdata.dir);
  }
  const cpuStart = processTreeCpuSeconds();
  for (const label of labels) {
    if (!(await programReads(label.path))) continue;
    const started = performance.now();
    const run = runProgram(label.path, models);
    outcomes.push({ set, file: label.file, ms: performance.now() - started, checks: {}, ready: false, error: run.status === 0 ? undefined : `exit ${run.status ?? run.error?.message}` });
  }
  const report: ChildReport = { outcomes, cpuSeconds: processTreeCpuSeconds() - cpuStart, peakRssMb: 0 };
  process.stdout.write(`\n@@REPORT ${JSON.stringify(report)}\n`);
  process.exit(0);
}

/**
 * The pipeline and the program on each image in turn (who goes first alternates), one receipt at
 * a time, the program started by a runner process (programRunner). This machine's speed drifts
 * with its other tenants: the program alone, run minutes apart on the same 40 images, measured
 * 0.68 and 0.94 CPU-s per image.
 */
async function runPairedChild(set: SetName, side: PairedSide): Promise<void> {
  const labels = receiptsOf(set);
  const { engine, read } = await warmPipeline(side, labels[0]!.path, 1);
  const runner = await programRunner();
  const pairs: NonNullable<ChildReport['pairs']> = [];
  const cpuOf = async (run: () => unknown) => {
    const before = processTreeCpuSeconds();
    await run();
    return processTreeCpuSeconds() - before;
  };
  for (const label of labels) {
    if (!(await programReads(label.path))) continue;
    const steps: StepCpu = { decode: 0, prepare: 0, recognise: 0, extract: 0 };
    let readBy: string | undefined;
    // Five more readings of /proc a receipt (~2 ms of CPU each), counted on the pipeline's side.
    const ours = async () => {
      let last = processTreeCpuSeconds();
      const onStep = async (step: string) => {
        const part = STEP_ENDS[step];
        if (!part) return;
        const now = processTreeCpuSeconds();
        steps[part] += now - last;
        last = now;
      };
      const result = await read(label.path, undefined, onStep).catch(() => undefined);
      steps.extract += processTreeCpuSeconds() - last;
      readBy = result?.readBy;
    };
    const oursFirst = pairs.length % 2 === 0;
    const first = oursFirst ? await cpuOf(ours) : await runner.run(label.path);
    const second = oursFirst ? await runner.run(label.path) : await cpuOf(ours);
    pairs.push({ file: label.file, ours: oursFirst ? first : second, program: oursFirst ? second : first, steps, readBy });
  }
  runner.close();
  await engine.close();
  const report: ChildReport = { outcomes: [], cpuSeconds: 0, peakRssMb: 0, pairs };
  process.stdout.write(`\n@@REPORT ${JSON.stringify(report)}\n`);
  process.exit(0);
}

/**
 * The program run for the paired side from a small process of its own, started once. Run from the
 * pipeline's process, each run forked that large process, and after every fork the pipeline's next
 * writes took copy-on-write page faults: with `spawnSync('true')` between receipts, preparing a
 * page cost 0.18 CPU-s instead of 0.10 (5,600 minor faults against 630), a cost the service, which
 * forks nothing per receipt, never pays.
 */
async function programRunner() {
  const proc = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--program-runner'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  // Its start-up (seconds of CPU, a child of this process) must end before the first receipt is measured.
  if ((await lines.next()).value !== 'ready') throw new Error('the program runner did not start');
  return {
    /** The program's CPU-s on one image, as the runner measured it (its reaped child, nothing of its own). */
    async run(file: string): Promise<number> {
      proc.stdin.write(`${file}\n`);
      const answer = await lines.next();
      if (answer.done) throw new Error('the program runner ended');
      return Number(answer.value);
    },
    close: () => proc.stdin.end(),
  };
}

/** The runner's side: each image named on stdin run by the program, answered with the program's CPU-s. */
async function runProgramRunner(): Promise<void> {
  process.stdout.write('ready\n');
  for await (const file of createInterface({ input: process.stdin })) {
    const before = reapedCpuSeconds();
    runProgram(file);
    process.stdout.write(`${reapedCpuSeconds() - before}\n`);
  }
  process.exit(0);
}

// ---- parent: run the children, print the tables ----------------------------------------------

/**
 * Where the pipeline's CPU went in the paired run, per step, beside the program's; and the
 * receipts whose recognition cost most (a second reader, OSD, another language), with their share.
 */
function printStepCpu(pairs: NonNullable<ChildReport['pairs']>): void {
  const mean = (f: (p: (typeof pairs)[number]) => number) => pairs.reduce((a, p) => a + f(p), 0) / pairs.length;
  console.log(`
| CPU-s per receipt, paired run | ${CPU_STEPS.join(' | ')} | the program |`);
  console.log(`| --- |${CPU_STEPS.map(() => ' --- |').join('')} --- |`);
  console.log(`| mean | ${CPU_STEPS.map((s) => mean((p) => p.steps[s]).toFixed(3)).join(' | ')} | ${mean((p) => p.program).toFixed(3)} |`);
  console.log(`| median | ${CPU_STEPS.map((s) => median(pairs.map((p) => p.steps[s])).toFixed(3)).join(' | ')} | ${median(pairs.map((p) => p.program)).toFixed(3)} |`);
  const costly = [...pairs].sort((a, b) => b.steps.recognise - a.steps.recognise).slice(0, 5);
  const share = costly.reduce((a, p) => a + p.steps.recognise, 0) / pairs.reduce((a, p) => a + p.ours, 0);
  console.log(
    `costliest recognitions (${(100 * share).toFixed(0)} % of the pipeline's CPU): ` +
      costly.map((p) => `${p.file} ${p.steps.recognise.toFixed(2)} s (${p.readBy ?? 'failed'}; program ${p.program.toFixed(2)} s)`).join(', '),
  );
}

function child(set: SetName, side: Side, dump = false): Promise<ChildReport> {
  const argv = [...process.execArgv, process.argv[1]!, '--child', set, '--side', side, '--concurrency', args.concurrency!, '--engine', args.engine!];
  if (args.limit) argv.push('--limit', args.limit);
  if (args.dump && dump) argv.push('--dump', args.dump);
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
function tesseractBackends(): TesseractBackend[] {
  if (args.tesseract) {
    const named = args.tesseract.split(',').map((b) => b.trim());
    for (const b of named) if (b !== 'wasm' && b !== 'native') throw new Error(`--tesseract: wasm or native, not ${b}`);
    return [...new Set(named)] as TesseractBackend[];
  }
  return [chooseTesseract(parseConfig({ ...process.env, ROLES: 'api,worker' }).OCR_TESSERACT).backend];
}

function paddlePolicies(): PaddleMode[] | null {
  if (!args.paddle) return null;
  const modes: readonly string[] = configSchema.shape.OCR_PADDLE.unwrap().options;
  const named = [...new Set(args.paddle.split(',').map((m) => m.trim()))];
  for (const m of named) if (!modes.includes(m)) throw new Error(`--paddle: ${modes.join(', ')}, not ${m}`);
  return named as PaddleMode[];
}

const SIDE_NAMES: Partial<Record<Side, string>> = {
  baseline: 'baseline (tesseract eng, no clean-up)',
  'cli:own': 'tesseract program, its own models (--psm 6 -l eng)',
  'cli:same': 'tesseract program, the pipeline\'s models (--psm 6 -l eng)',
};
const sideName = (side: Side) => SIDE_NAMES[side] ?? side;

const pct = (k: number, n: number) => (n ? `${((k / n) * 100).toFixed(0)} %` : '–');
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
const median = (values: number[]) => quantile(values, 0.5);

/** Per field, on how many receipts two sides read the same value. */
function agreementRows(a: Outcome[], b: Outcome[]): string[] {
  const other = new Map(b.map((o) => [keyOf(o), o]));
  const pairs = a.map((o) => [o, other.get(keyOf(o))] as const).filter((p): p is readonly [Outcome, Outcome] => !!p[0].fields && !!p[1]?.fields);
  return AGREEMENT_FIELDS.map((k) => {
    const differ = pairs.filter(([x, y]) => x.fields![k] !== y.fields![k]);
    const where = differ.map(([x, y]) => `${x.file}: ${JSON.stringify(x.fields![k])} / ${JSON.stringify(y.fields![k])}`).join('; ');
    return `| ${k} | ${pairs.length - differ.length}/${pairs.length} | ${where} |`;
  });
}

/** The sets `--set` names (comma-separated), or every set. */
function namedSets(): SetName[] {
  if (!args.set) return [...SETS];
  const named = args.set.split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of named) {
    if (!(SETS as readonly string[]).includes(s)) {
      console.error(`--set: ${SETS.join(', ')} (comma-separated), not ${s}`);
      process.exit(2);
    }
  }
  return [...new Set(named)] as SetName[];
}

const toScored = (o: Outcome, label: LabelledReceipt): ScoredReceipt => ({ set: o.set, file: o.file, half: label.half, kind: label.kind, checks: o.checks, ready: o.ready, items: o.items });

/** Per set, how often the currency was right had the user picked the label's, on each half. */
function currencyWithHintLine(outcomes: Outcome[], labels: Map<string, LabelledReceipt>, sets: SetName[]): string | null {
  const cells = sets.flatMap((set) => {
    const labelled = outcomes.filter((o) => o.set === set && o.currencyWithHint !== undefined);
    if (labelled.length === 0) return [];
    const halves = HALVES.map((h) => {
      const ofHalf = labelled.filter((o) => labels.get(keyOf(o))?.half === h);
      return `${pct(ofHalf.filter((o) => o.currencyWithHint).length, ofHalf.length)} (${ofHalf.length})`;
    });
    return [`${set} ${halves.join(' / ')}`];
  });
  return cells.length ? `currency had the user picked the label's (${HALVES.join(' / ')}): ${cells.join(' · ')}` : null;
}

async function runParent(): Promise<void> {
  let config;
  try {
    config = benchConfig();
  } catch (err) {
    // `--engine vlm` without VLM_BASE_URL and VLM_MODEL, say: told before any child starts.
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
  const named = namedSets();
  const model = config.ocrEngine === 'vlm' ? ` (${config.VLM_MODEL} at ${new URL(config.VLM_BASE_URL!).host})` : '';
  const backends = tesseractBackends();
  const policies = paddlePolicies();
  const ours: Side[] = backends.flatMap((b) => (policies ? policies.map((m) => `ours:${b}:${m}` as const) : [`ours:${b}` as const]));
  /** Per set, each of the first two sides' CPU per receipt; and their CPU-s and receipts over every set. */
  const cpuPerSet: [number[], number[]] = [[], []];
  const cpuTotals = new Map<Side, { seconds: number; receipts: number }>();
  // Sides take turns going first, so neither always meets a cold or a warm machine.
  const pipelines: Side[] = [...(args['skip-baseline'] ? [] : (['baseline'] as const)), ...ours];
  // --skip-program: accuracy alone, without the tesseract program's CPU reference (its runs double a full run's time).
  const cliThere = !args['skip-program'] && spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;
  console.log(`bench:accuracy — engine ${args.engine}${model}, tesseract ${backends.join(' and ')}, concurrency ${args.concurrency}, each side in its own process`);
  const sets: SetName[] = [];
  for (const set of named) {
    if (!setAvailable(set)) console.log(`${set}: skipped — ${SET_DIRS[set]} is not there`);
    else if (receiptsOf(set).length === 0) console.log(`${set}: skipped — no receipts to read`);
    else sets.push(set);
  }
  /** Every receipt each pipeline side read, over the sets, for the accuracy tables at the end. */
  const read = new Map<Side, Outcome[]>(pipelines.map((side) => [side, []]));
  const labels = new Map<string, LabelledReceipt>();
  for (const [i, set] of sets.entries()) {
    for (const label of receiptsOf(set)) labels.set(keyOf(label), label);
    const order = i % 2 === 0 ? pipelines : [...pipelines].reverse();
    const reports = {} as Partial<Record<Side, ChildReport>>;
    // The document dumped is the first backend's.
    for (const side of order) reports[side] = await child(set, side, side === ours[0]);
    if (cliThere) for (const side of CLI_SIDES) reports[side] = await child(set, side);
    const paired = cliThere ? backends.map((b) => `paired:${b}` as const) : [];
    for (const side of paired) reports[side] = await child(set, side);
    for (const side of pipelines) read.get(side)!.push(...reports[side]!.outcomes);
    const first = reports[ours[0]!]!;

    console.log(`\n## ${set}: ${SET_TITLES[set]} — ${first.outcomes.length} receipts (accuracy: the tables at the end)`);
    if (ours.length > 1) {
      console.log(`\n| field: ${ours[0]} and ${ours[1]} read the same | receipts | where they differ (${ours[0]} / ${ours[1]}) |`);
      console.log('| --- | --- | --- |');
      for (const row of agreementRows(first.outcomes, reports[ours[1]!]!.outcomes)) console.log(row);
    }
    for (const side of ours) {
      const readers = new Map<string, number>();
      for (const o of reports[side]!.outcomes) readers.set(o.readBy ?? 'error', (readers.get(o.readBy ?? 'error') ?? 0) + 1);
      console.log(`\n${side}, read by: ${[...readers].map(([k, v]) => `${k} ${v}`).join(', ')}`);
      const errors = reports[side]!.outcomes.filter((o) => o.error);
      if (errors.length) console.log(`${side}, failed: ${errors.map((o) => `${o.file} (${o.error})`).join('; ')}`);
    }

    const bySide = new Map(pipelines.map((side) => [side, new Map(reports[side]!.outcomes.map((o) => [keyOf(o), o]))]));
    if (args.verbose) {
      console.log(`\n| receipt | half · kind | ${pipelines.map((side) => `${side}: time, reader, total/date/merchant/currency (– not labelled), ready, tax where labelled`).join(' | ')} |`);
      console.log(`| --- | --- |${pipelines.map(() => ' --- |').join('')}`);
      const tick = (b: boolean | undefined) => (b === undefined ? '–' : b ? '✓' : '·');
      // A missed tax shows what was read instead.
      const tax = (o: Outcome) => (o.checks.tax === undefined ? '' : o.checks.tax ? ' tax ✓' : ` tax · (${o.fields?.tax ?? 'none'})`);
      const mark = (o: Outcome | undefined) =>
        o
          ? `${(o.ms / 1000).toFixed(1)} s ${o.readBy ?? o.error} ${[o.checks.total, o.checks.date, o.checks.merchant, o.checks.currency].map(tick).join('')}${o.ready ? ' ready' : ''}${tax(o)}`
          : '–';
      for (const o of first.outcomes) {
        const label = labels.get(keyOf(o));
        console.log(`| ${o.file} | ${label?.half} · ${label?.kind} | ${pipelines.map((side) => mark(bySide.get(side)!.get(keyOf(o)))).join(' | ')} |`);
      }
    }

    const perReceipt = (side: Side) => reports[side]!.cpuSeconds / reports[side]!.outcomes.length;
    if (ours.length > 1) {
      cpuPerSet[0].push(perReceipt(ours[0]!));
      cpuPerSet[1].push(perReceipt(ours[1]!));
      for (const side of ours.slice(0, 2)) {
        const total = cpuTotals.get(side) ?? { seconds: 0, receipts: 0 };
        cpuTotals.set(side, { seconds: total.seconds + reports[side]!.cpuSeconds, receipts: total.receipts + reports[side]!.outcomes.length });
      }
      console.log(`\n${ours[0]} ÷ ${ours[1]}, CPU-s per receipt: ${perReceipt(ours[0]!).toFixed(2)} ÷ ${perReceipt(ours[1]!).toFixed(2)} = ${(perReceipt(ours[0]!) / perReceipt(ours[1]!)).toFixed(3)} (${order[0]} went first)`);
    }
    const refs = CLI_SIDES.map((side) => (reports[side]?.outcomes.length ? perReceipt(side) : undefined));
    console.log(`\n| cost | time p50 | time p95 | CPU-s per receipt (process tree) | ÷ program, own models | ÷ program, same models | peak RSS |`);
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const side of pipelines) {
      const times = reports[side]!.outcomes.map((o) => o.ms);
      const ratios = refs.map((ref) => (ref ? `${(perReceipt(side) / ref).toFixed(2)}×` : '–')).join(' | ');
      console.log(`| ${sideName(side)} | ${quantile(times, 0.5).toFixed(0)} ms | ${quantile(times, 0.95).toFixed(0)} ms | ${perReceipt(side).toFixed(2)} | ${ratios} | ${reports[side]!.peakRssMb.toFixed(0)} MB |`);
    }
    for (const side of CLI_SIDES) {
      if (!reports[side]) console.log(`| ${sideName(side)} | ${args['skip-program'] ? 'not run (--skip-program)' : 'not installed here'} | | | | | |`);
      else console.log(`| ${sideName(side)}, ${reports[side].outcomes.length} images | | | ${perReceipt(side).toFixed(2)} | | | |`);
    }
    for (const side of paired) {
      const pairs = reports[side]!.pairs!;
      if (pairs.length === 0) {
        console.log(`\n${side.replace('paired:', 'ours:')} and the program, taking turns: no image the program reads as it is`);
        continue;
      }
      const sum = (k: 'ours' | 'program') => pairs.reduce((a, p) => a + p[k], 0);
      const ratios = pairs.filter((p) => p.program > 0).map((p) => p.ours / p.program);
      console.log(
        `\n${side.replace('paired:', 'ours:')} and the program (own models), taking turns image by image, one at a time (${pairs.length} images): ` +
          `${(sum('ours') / pairs.length).toFixed(2)} ÷ ${(sum('program') / pairs.length).toFixed(2)} CPU-s = ${(sum('ours') / sum('program')).toFixed(2)}× (median of per-image ratios ${median(ratios).toFixed(2)}×)`,
      );
      printStepCpu(pairs);
    }
    if (reports.baseline) {
      const baseline = bySide.get('baseline')!;
      for (const side of ours) {
        const ratios = reports[side]!.outcomes.flatMap((o) => {
          const b = baseline.get(keyOf(o));
          return b ? [o.ms / b.ms] : [];
        });
        console.log(`\n${side} ÷ baseline, time: median of per-receipt paired ratios ${median(ratios).toFixed(2)}; CPU ${(perReceipt(side) / perReceipt('baseline')).toFixed(2)}`);
      }
    }
  }

  if (cpuPerSet[0].length > 0) {
    const [a, b] = [cpuTotals.get(ours[0]!)!, cpuTotals.get(ours[1]!)!];
    const ratios = pairedRatios(...cpuPerSet);
    console.log(
      `\n${ours[0]} ÷ ${ours[1]}, CPU-s per receipt, median of the per-set paired ratios (${ratios.map((r) => r.toFixed(3)).join(', ')}): ${describeVerdict(ratios, { atMost: 1.1 }, (x) => x.toFixed(3), 'sets')}; ` +
        `over all ${a.receipts} receipts ${(a.seconds / a.receipts).toFixed(2)} ÷ ${(b.seconds / b.receipts).toFixed(2)} = ${(a.seconds / a.receipts / (b.seconds / b.receipts)).toFixed(3)}`,
    );
  }
  if (sets.length > 0) {
    console.log(`\n## accuracy — ${sets.join(', ')}: per set, per half (tune / report, by a hash of each file's bytes) and per kind`);
    console.log('ready: the pipeline would export it (quality ≥ 0.6, no open flag, the age of the date aside); its precision is how many of those have total, date, merchant and currency right');
    for (const side of pipelines) {
      const outcomes = read.get(side)!;
      const scored = outcomes.map((o) => toScored(o, labels.get(keyOf(o))!));
      console.log(`\n### ${sideName(side)}\n`);
      console.log(TABLE_HEADER.join('\n'));
      console.log(accuracyRows(scored, sets).join('\n'));
      console.log('');
      for (const half of HALVES) {
        const perSet = sets.map((s) => [s, readiness(scored.filter((r) => r.set === s && r.half === half))] as const).filter(([s]) => scored.some((r) => r.set === s));
        console.log(`ready (${half} half): ${perSet.map(([s, r]) => `${s} ${(r.precision * 100).toFixed(0)} % right at ${(r.coverage * 100).toFixed(0)} % coverage`).join(' · ')}`);
      }
      const hint = currencyWithHintLine(outcomes, labels, sets);
      if (hint) console.log(hint);
    }
  }
  process.exit(0);
}

if (args['program-runner']) await runProgramRunner();
else if (args.child) await runChild(args.child as SetName, (args.side ?? 'ours:wasm') as Side);
else await runParent();
