// npx tsx bench/extraction-rules.bench.ts — the extraction rules alone (no OCR) on saved OCR text:
// the receipts-world dumps, the SROIE scans' dumps and the SROIE transcripts, per field and per
// half (tune / holdout), and the line items against common/src/extraction/fixtures/line-items.fixture.json.
// OCR text is read from $OCR_DUMP (default /tmp/ocr-dump, else /tmp/own-ocr): <set>/<file>.txt
// or <set>/<file without extension>.txt.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { itemScores, loadLineItemLabels, matchItems, type ItemTally } from '../tests/support/line-items.js';

// Workspace packages resolve to their TypeScript sources, as under vitest: no build needed.
if (!process.execArgv.includes('--conditions=source')) {
  const run = spawnSync(process.execPath, ['--conditions=source', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const { extractReceipt, extractReceiptWithSources } = (await import('@receipts/common')) as typeof import('../common/src/index.js');
const world = await import('../tests/support/receipts-world.js');
const sroie = await import('../tests/support/sroie.js');
const { receiptsDir } = await import('../tests/support/service-process.js');

const dumpDir = [process.env.OCR_DUMP, '/tmp/ocr-dump', '/tmp/own-ocr'].find((d): d is string => !!d && existsSync(d))!;
const NOW = new Date('2026-11-23');

function dumpText(set: string, file: string): string | null {
  for (const name of [`${file}.txt`, `${file.replace(/\.[^.]+$/, '')}.txt`]) {
    const p = path.join(dumpDir, set, name);
    if (existsSync(p)) return readFileSync(p, 'utf8');
  }
  return null;
}

const doc = (content: string) => ({ content, documents: [{ fields: {} }] });
const near = (a: number | null | undefined, b: number | undefined) => a != null && b !== undefined && Math.abs(a - b) < 0.005;

/** One receipt's checks: field → right (true), wrong (false) or not labelled (absent). */
type Checks = Record<string, boolean | undefined>;
interface Row {
  set: string;
  half: 'tune' | 'holdout';
  file: string;
  checks: Checks;
}

const rows: Row[] = [];

for (const label of await world.loadWorldLabels()) {
  const text = dumpText('world', label.file);
  if (text === null) continue;
  const r = extractReceipt(doc(text), { now: NOW });
  const hinted = extractReceipt(doc(text), { now: NOW, currencyCode: label.currency });
  const currencyOf = (c: string | undefined) => c ?? 'USD';
  rows.push({
    set: 'world',
    half: world.half(label.file),
    file: label.file,
    checks: {
      total: world.totalMatches(r.total, label),
      date: world.dateMatches(r.date, label),
      merchant: world.merchantMatches(r.merchantName, label),
      currency: currencyOf(r.currency) === label.currency,
      'currency (hint)': currencyOf(hinted.currency) === label.currency,
      'total (hint)': world.totalMatches(hinted.total, label),
      'date (hint)': world.dateMatches(hinted.date, label),
      tax: label.tax === undefined ? undefined : near(r.tax, label.tax),
      subtotal: label.subtotal === undefined ? undefined : near(r.subtotal, label.subtotal),
      tip: label.tip === undefined ? undefined : near(r.tip ?? 0, label.tip),
    },
  });
}

const sroieLabels = await sroie.loadLabels();
for (const [set, read] of [
  ['sroie-ocr', async (file: string) => dumpText('sroie', file)],
  ['sroie-transcript', async (file: string) => sroie.groundTruthText(file)],
] as const) {
  for (const label of sroieLabels) {
    const text = await read(label.file);
    if (text === null) continue;
    const r = extractReceipt(doc(text), { now: new Date('2019-01-01') });
    rows.push({
      set,
      half: world.half(label.file),
      file: label.file,
      checks: {
        total: r.total === sroie.labelTotal(label),
        date: r.date === sroie.labelDate(label),
        merchant: sroie.nameSimilarity(r.merchantName, label.company) >= sroie.MERCHANT_SIMILARITY,
        currency: r.currency === 'MYR',
      },
    });
  }
}

const FIELDS = ['total', 'date', 'merchant', 'currency', 'currency (hint)', 'total (hint)', 'date (hint)', 'tax', 'subtotal', 'tip'];
const cell = (subset: Row[], field: string) => {
  const labelled = subset.filter((r) => r.checks[field] !== undefined);
  if (labelled.length === 0) return '—';
  const right = labelled.filter((r) => r.checks[field]).length;
  return `${((right / labelled.length) * 100).toFixed(0)} % (${right}/${labelled.length})`;
};

console.log(`extraction rules on ${dumpDir} and the SROIE transcripts\n`);
console.log(`| set | half | n | ${FIELDS.join(' | ')} |`);
console.log(`| --- | --- | --- | ${FIELDS.map(() => '---').join(' | ')} |`);
for (const set of ['world', 'sroie-ocr', 'sroie-transcript']) {
  for (const half of ['tune', 'holdout', 'all'] as const) {
    const subset = rows.filter((r) => r.set === set && (half === 'all' || r.half === half));
    if (subset.length === 0) continue;
    console.log(`| ${set} | ${half} | ${subset.length} | ${FIELDS.map((f) => cell(subset, f)).join(' | ')} |`);
  }
}

if (process.argv.includes('--misses')) {
  for (const r of rows) {
    const wrong = Object.entries(r.checks).filter(([, ok]) => ok === false).map(([f]) => f);
    if (wrong.length > 0) console.log(`${r.set} ${r.half} ${r.file}: ${wrong.join(', ')}`);
  }
}

// Line items against the hand-labelled fixture (tests/support/line-items.ts says how they match):
// on the OCR dumps (what the pipeline sees) and, for SROIE, on the transcripts (the rules alone).
const fixture = loadLineItemLabels();
if (fixture.length > 0) {
  const sources = {
    ocr: (set: string, file: string) => Promise.resolve(dumpText(set, file)),
    transcript: (set: string, file: string) => (set === 'sroie' ? sroie.groundTruthText(file) : Promise.resolve(dumpText(set, file))),
  };
  console.log(`\n| line items (${fixture.length} receipts) | text | precision | recall | F1 |`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const [source, read] of Object.entries(sources)) {
    const tally: Record<'tune' | 'holdout', ItemTally[]> = { tune: [], holdout: [] };
    for (const receipt of fixture) {
      const text = await read(receipt.set, receipt.file);
      if (text === null) continue;
      const found = extractReceipt(doc(text), { now: NOW }).items;
      const t = matchItems(found, receipt.items);
      tally[world.half(receipt.file)].push(t);
      if (process.argv.includes('--misses') && (t.fn > 0 || t.fp > 0)) console.log(`items (${source}) ${receipt.file}: ${t.tp} right, ${t.fp} extra, ${t.fn} missed`);
    }
    for (const [half, tallies] of Object.entries({ ...tally, all: [...tally.tune, ...tally.holdout] })) {
      const s = itemScores(tallies);
      console.log(`| ${half} (${tallies.length}) | ${source} | ${s.precision.toFixed(2)} | ${s.recall.toFixed(2)} | ${s.f1.toFixed(2)} |`);
    }
  }
} else {
  console.log('\n(no line-item fixture)');
}
