// npm run bench:rules [-- --misses] [--doubts] — the extraction rules alone (no OCR) on saved recognitions of every shared
// set, per set, per half (tune / report) and per kind, with how far "ready for export" can be trusted; and the SROIE
// transcripts. Recognitions are read from $OCR_DUMP (default /tmp/ocr-dump), as `npm run bench:accuracy -- --dump DIR`
// writes them: <set>/<file>.json (the recognised document) or <set>/<file>.txt (its text alone).
// --misses lists each receipt's wrong fields; --doubts counts each flag and how often the field it doubts was right.
// --cpu-baseline REF also times the extraction (CPU per receipt) against the rules as they were at git REF, the two
// taking turns over every saved recognition, BENCH_RUNS times (default 5): the median of the paired ratios.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { RecognizedDocument } from '@receipts/common';
import { accuracyRows, readiness, TABLE_HEADER, type ScoredReceipt } from './accuracy-table.js';
import { describeVerdict, pairedRatios } from './paired-verdict.js';

// Workspace packages resolve to their TypeScript sources, as under vitest: no build needed.
if (!process.execArgv.includes('--conditions=source')) {
  const run = spawnSync(process.execPath, ['--conditions=source', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const common = await import('@receipts/common');
const data = await import('#test-support/receipt-data');
const { matchItems } = data;

const { values: args } = parseArgs({ options: { misses: { type: 'boolean' }, doubts: { type: 'boolean' }, 'cpu-baseline': { type: 'string' } } });
const dumpDir = process.env.OCR_DUMP ?? '/tmp/ocr-dump';
if (!existsSync(dumpDir)) {
  console.log(`bench:rules: skipped — no saved recognitions at ${dumpDir} (npm run bench:accuracy -- --dump ${dumpDir} writes them)`);
  process.exit(0);
}
// Receipts years old would all be flagged for their age: the date is judged against a day just after the newest.
const NOW = new Date('2026-11-23');

function savedDocument(set: string, file: string): RecognizedDocument | null {
  const json = path.join(dumpDir, set, `${file}.json`);
  if (existsSync(json)) {
    const doc = JSON.parse(readFileSync(json, 'utf8')) as RecognizedDocument & { error?: string };
    return doc.error ? null : doc;
  }
  const txt = path.join(dumpDir, set, `${file}.txt`);
  return existsSync(txt) ? { content: readFileSync(txt, 'utf8'), documents: [{ fields: {} }] } : null;
}

type Weights = import('@receipts/common').TotalVoteWeights;
type NameWeights = import('@receipts/common').NameWeights;

/** What the pipeline decides for a recognised document (runPipeline's extraction and flags), without the owner's rules. */
function read(doc: RecognizedDocument, totalVoteWeights?: Weights, nameWeights?: NameWeights) {
  const { receipt: extracted, doubts } = common.extractReceiptWithSources(doc, { now: NOW, totalVoteWeights, nameWeights });
  const receipt = common.withinMoneyBounds(extracted);
  // The sets are years old: "Date out of reasonable range" would flag every one of them.
  const issues = common.receiptIssues(receipt, doubts, NOW).filter((i) => i.code !== 'dateOutOfRange');
  return { receipt, issues, ready: common.isExportValid(receipt, issues) };
}

const scored: ScoredReceipt[] = [];
const flagTally = new Map<string, { n: number; fieldRight: number }>();
const missing: string[] = [];
for (const set of data.SETS) {
  for (const label of data.loadSet(set)) {
    const doc = savedDocument(set, label.file);
    if (!doc) {
      missing.push(`${set}/${label.file}`);
      continue;
    }
    const { receipt, issues, ready } = read(doc);
    const checks = data.checkReceipt(receipt, label);
    const items = label.items ? matchItems(receipt.items, label.items) : undefined;
    scored.push({ set, file: label.file, half: label.half, kind: label.kind, checks, ready, items });
    if (args.doubts && label.half === 'tune') {
      for (const issue of issues) {
        const kind = common.FLAG_KINDS[issue.code];
        const field = kind.field === 'merchantName' ? 'merchant' : kind.field;
        // Items are right when they match the labelled ones exactly (none missed, none made up).
        const right = field === 'items' ? items !== undefined && items.fp === 0 && items.fn === 0 : field && field in checks ? checks[field as keyof typeof checks] : undefined;
        // Counted by kind: a message with amounts in it is one flag, whatever the amounts.
        const key = common.flagKind(issue);
        const tally = flagTally.get(key) ?? { n: 0, fieldRight: 0 };
        tally.n++;
        if (right) tally.fieldRight++;
        flagTally.set(key, tally);
      }
    }
    if (args.misses) {
      const wrong = Object.entries(checks).filter(([k, ok]) => ok === false && !['allThree', 'allFour'].includes(k)).map(([k]) => k);
      const falseReady = ready && checks.allFour === false;
      if (wrong.length > 0 || falseReady)
        console.log(`${set} ${label.half} ${label.file}: ${wrong.join(', ')}${falseReady ? ' — READY' : ''}${issues.length ? ` [${issues.join('; ')}]` : ''}`);
    }
  }
}

console.log(`\nbench:rules — the extraction rules on the recognitions saved in ${dumpDir} (${scored.length} receipts${missing.length ? `; ${missing.length} labelled receipts have none` : ''})\n`);
console.log(TABLE_HEADER.join('\n'));
console.log(accuracyRows(scored, data.SETS).join('\n'));
for (const half of data.HALVES) {
  const perSet = data.SETS.map((s) => [s, readiness(scored.filter((r) => r.set === s && r.half === half))] as const).filter(([s]) => scored.some((r) => r.set === s));
  console.log(`\nready (${half} half): ${perSet.map(([s, r]) => `${s} ${(r.precision * 100).toFixed(0)} % right at ${(r.coverage * 100).toFixed(0)} % coverage`).join(' · ')}`);
}

// The choosers of the total and of the merchant's line: the weights set by hand and those `npm run train:fields`
// fitted on the tune halves.
const choosers: Array<[string, string, { totalVoteWeights?: Weights; nameWeights?: NameWeights }]> = [
  ['total', 'hand-set', { totalVoteWeights: common.HAND_SET_VOTE_WEIGHTS }],
  ['total', 'fitted', { totalVoteWeights: common.FITTED_VOTE_WEIGHTS }],
  ['merchant', 'hand-set', { nameWeights: common.HAND_SET_NAME_WEIGHTS }],
  ['merchant', 'fitted', { nameWeights: common.FITTED_NAME_WEIGHTS }],
];
const inUse = (fitted: boolean) => (fitted ? 'fitted' : 'hand-set');
console.log(
  `\nchoosers (the rules use the ${inUse(common.TOTAL_VOTE_WEIGHTS === common.FITTED_VOTE_WEIGHTS)} total and the ${inUse(common.NAME_WEIGHTS === common.FITTED_NAME_WEIGHTS)} merchant):\n`,
);
console.log('| field | chooser | half | total | merchant | total, date, merchant | ready: precision | ready: coverage |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [field, name, weights] of choosers) {
  const rows: ScoredReceipt[] = [];
  for (const set of data.SETS) {
    for (const label of data.loadSet(set)) {
      const doc = savedDocument(set, label.file);
      if (!doc) continue;
      const { receipt, ready } = read(doc, weights.totalVoteWeights, weights.nameWeights);
      rows.push({ set, file: label.file, half: label.half, kind: label.kind, checks: data.checkReceipt(receipt, label), ready });
    }
  }
  for (const half of data.HALVES) {
    const ofHalf = rows.filter((r) => r.half === half);
    const share = (k: 'total' | 'merchant' | 'allThree') => {
      const labelled = ofHalf.filter((r) => r.checks[k] !== undefined);
      return `${Math.round((labelled.filter((r) => r.checks[k]).length / Math.max(1, labelled.length)) * 100)} %`;
    };
    const r = readiness(ofHalf);
    console.log(`| ${field} | ${name} | ${half} | ${share('total')} | ${share('merchant')} | ${share('allThree')} | ${(r.precision * 100).toFixed(0)} % | ${(r.coverage * 100).toFixed(0)} % |`);
  }
}

if (flagTally.size > 0) {
  console.log('\n| flag (tune halves) | receipts | the field it doubts was right |');
  console.log('| --- | --- | --- |');
  for (const [flag, t] of [...flagTally].sort((a, b) => b[1].n - a[1].n)) console.log(`| ${flag} | ${t.n} | ${t.fieldRight} |`);
}

// The SROIE transcripts: the rules on text without OCR errors.
if (data.setAvailable('sroie')) {
  const rows: ScoredReceipt[] = [];
  for (const label of data.loadSet('sroie')) {
    const text = await data.groundTruthText(label.file);
    const { receipt, ready } = read({ content: text, documents: [{ fields: {} }] });
    rows.push({ set: 'sroie', file: label.file, half: label.half, kind: 'transcript', checks: data.checkReceipt(receipt, label), ready, items: label.items ? matchItems(receipt.items, label.items) : undefined });
  }
  console.log(`\nSROIE transcripts (the dataset's own text, no OCR):\n\n${TABLE_HEADER.join('\n')}\n${accuracyRows(rows, ['sroie']).join('\n')}`);
} else {
  console.log('\nSROIE transcripts: skipped — ../shared/receipts is not there');
}

// Extraction CPU per receipt against the rules at another commit, in the same minutes.
if (args['cpu-baseline']) {
  const ref = args['cpu-baseline'];
  const root = path.resolve(import.meta.dirname, '..');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rules-baseline-'));
  try {
    execSync(`git archive ${JSON.stringify(ref)} common/src | tar -x -C ${JSON.stringify(dir)}`, { cwd: root });
    // Its dependencies (zod) are this checkout's.
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    const baseline = (await import(pathToFileURL(path.join(dir, 'common/src/index.ts')).href)) as typeof common;
    const docs = data.SETS.flatMap((set) => data.loadSet(set).map((label) => savedDocument(set, label.file))).filter((d): d is RecognizedDocument => d !== null);
    const cpuMs = (extract: typeof common.extractReceiptWithSources) => {
      const start = process.cpuUsage();
      for (const doc of docs) extract(doc, { now: NOW });
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000 / docs.length;
    };
    // Warm both (JIT, regular expressions) before measuring.
    cpuMs(common.extractReceiptWithSources);
    cpuMs(baseline.extractReceiptWithSources);
    const runs = Number(process.env.BENCH_RUNS ?? 5);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let run = 0; run < runs; run++) {
      // The sides take turns going first.
      if (run % 2 === 0) {
        ours.push(cpuMs(common.extractReceiptWithSources));
        theirs.push(cpuMs(baseline.extractReceiptWithSources));
      } else {
        theirs.push(cpuMs(baseline.extractReceiptWithSources));
        ours.push(cpuMs(common.extractReceiptWithSources));
      }
    }
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
    console.log(`\nextraction CPU per receipt (${docs.length} saved recognitions, ${runs} runs): these rules ${ms(ours)} ms; at ${ref} ${ms(theirs)} ms`);
    console.log(`these ÷ ${ref}, median of paired ratios: ${describeVerdict(pairedRatios(ours, theirs), { atMost: 1.1 }, (x) => x.toFixed(3))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
