// npm run train:fields — fits the total chooser's vote weights on the tune halves of every shared set and writes
// common/src/extraction/total-vote.fitted.ts. It reads the recognitions saved by
// `npm run bench:accuracy -- --dump DIR` from $OCR_DUMP (default /tmp/ocr-dump): the OCR is the pipeline's, the
// fit is over what the rules see. Nothing of a report half is read. `npm run bench:rules` then prints both choosers
// on both halves; total-vote.weights.ts names the one the rules use.
//
// The model: each amount voted for is a candidate with a count per vote feature (totals.rule.ts VOTE_FEATURES); its
// score is the weights times the counts, and the chooser takes the best. The weights are fitted as a conditional
// logit (softmax over a receipt's candidates, the labelled total the right one), by gradient descent with an L2
// penalty, from zero, deterministic. Receipts whose labelled total is not among the candidates teach nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Workspace packages resolve to their TypeScript sources: no build needed.
if (!process.execArgv.includes('--conditions=source')) {
  const run = spawnSync(process.execPath, ['--conditions=source', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const common = (await import('@receipts/common')) as typeof import('../common/src/index.js');
const sets = await import('../tests/support/receipt-sets.js');

const dumpDir = process.env.OCR_DUMP ?? '/tmp/ocr-dump';
const OUT = path.resolve(import.meta.dirname, '../common/src/extraction/total-vote.fitted.ts');
const ITERATIONS = 4000;
const LEARNING_RATE = 0.05;
/** Pulls weights towards 0 so a feature seen on a handful of receipts cannot take an extreme weight. */
const L2 = 0.02;
const FEATURES = common.VOTE_FEATURES;

if (!existsSync(dumpDir)) {
  console.log(`train:fields: no saved recognitions at ${dumpDir}; run npm run bench:accuracy -- --dump ${dumpDir} first (it reads ../shared)`);
  process.exit(1);
}

interface Example {
  candidates: number[][];
  right: number;
}

const vector = (c: Pick<import('../common/src/index.js').TotalCandidate, 'features'>) => FEATURES.map((f) => c.features[f] ?? 0);
const examples: Example[] = [];
let tuneReceipts = 0;
for (const set of sets.SETS) {
  for (const label of sets.loadSet(set)) {
    if (label.half !== 'tune' || label.total === null) continue;
    const file = path.join(dumpDir, set, `${label.file}.json`);
    if (!existsSync(file)) continue;
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { content?: string; error?: string };
    if (doc.error || doc.content === undefined) continue;
    tuneReceipts++;
    const lines = common.textLines(doc.content);
    const currency = common.currencyDecision(lines.join('\n'), undefined, common.findChain(lines)).code;
    const { candidates } = common.findTotalsWithSources(lines, common.amountReader(currency), currency);
    const right = candidates.findIndex((c) => Math.abs(c.amount - label.total!) < 0.005);
    if (right >= 0 && candidates.length > 1) examples.push({ candidates: candidates.map(vector), right });
  }
}

const dot = (w: number[], x: number[]) => w.reduce((s, wi, i) => s + wi * x[i]!, 0);
function loss(w: number[]): number {
  let total = 0;
  for (const { candidates, right } of examples) {
    const scores = candidates.map((x) => dot(w, x));
    const max = Math.max(...scores);
    total -= scores[right]! - max - Math.log(scores.reduce((s, v) => s + Math.exp(v - max), 0));
  }
  return total / examples.length + L2 * dot(w, w);
}

const w = FEATURES.map(() => 0);
for (let it = 0; it < ITERATIONS; it++) {
  const grad = FEATURES.map((_, i) => 2 * L2 * w[i]!);
  for (const { candidates, right } of examples) {
    const scores = candidates.map((x) => dot(w, x));
    const max = Math.max(...scores);
    const exps = scores.map((v) => Math.exp(v - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    candidates.forEach((x, j) => {
      const p = exps[j]! / sum - (j === right ? 1 : 0);
      x.forEach((xi, i) => (grad[i]! += (p * xi) / examples.length));
    });
  }
  grad.forEach((g, i) => (w[i]! -= LEARNING_RATE * g));
}

const fitted = Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(w[i]! * 100) / 100])) as Record<(typeof FEATURES)[number], number>;
const chooses = (weights: Record<string, number>, ex: Example) => {
  const scores = ex.candidates.map((x) => dot(FEATURES.map((f) => weights[f]!), x));
  return scores.indexOf(Math.max(...scores)) === ex.right;
};
const share = (weights: Record<string, number>) => examples.filter((ex) => chooses(weights, ex)).length;
console.log(`train:fields — ${tuneReceipts} tune-half receipts with a saved recognition; ${examples.length} with the labelled total among two or more candidates`);
console.log(`loss: hand-set ${loss(FEATURES.map((f) => common.HAND_SET_VOTE_WEIGHTS[f])).toFixed(3)}, fitted ${loss(w).toFixed(3)}`);
console.log(`right candidate first (tune, before tie-breaks): hand-set ${share(common.HAND_SET_VOTE_WEIGHTS)}, fitted ${share(fitted)} of ${examples.length}`);
console.log(FEATURES.map((f) => `${f} ${common.HAND_SET_VOTE_WEIGHTS[f]} → ${fitted[f]}`).join(', '));

writeFileSync(
  OUT,
  `// Written by \`npm run train:fields\` from ${examples.length} tune-half receipts of ../shared: do not edit.
import type { TotalVoteWeights } from './totals.rule.js';

export const FITTED_VOTE_WEIGHTS: TotalVoteWeights = {
${FEATURES.map((f) => `  ${f}: ${fitted[f]},`).join('\n')}
};
`,
);
console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
