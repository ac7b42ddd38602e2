// npm run train:fields — fits the total chooser's vote weights and the merchant chooser's name weights on the tune
// halves of every shared set and writes common/src/extraction/total-vote.fitted.ts and merchant-name.fitted.ts. It reads the recognitions saved by
// `npm run bench:accuracy -- --dump DIR` from $OCR_DUMP (default /tmp/ocr-dump): the OCR is the pipeline's, the
// fit is over what the rules see. Nothing of a report half is read. `npm run bench:rules` then prints both choosers
// on both halves; total-vote.weights.ts names the one the rules use.
//
// The model: each amount voted for is a candidate with a count per vote feature (total-vote.features.ts VOTE_FEATURES), and
// each header line that may name the merchant one with its name features (merchant-name.features.ts NAME_FEATURES); its
// score is the weights times the features, and the chooser takes the best. The weights are fitted as a conditional
// logit (softmax over a receipt's candidates, the labelled one right), by gradient descent with an L2 penalty, from
// zero, deterministic. Receipts whose labelled value is not among two or more candidates teach nothing.
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
const { nameSimilarity, MERCHANT_SIMILARITY } = await import('../tests/support/sroie.js');

const dumpDir = process.env.OCR_DUMP ?? '/tmp/ocr-dump';
const OUT = path.resolve(import.meta.dirname, '../common/src/extraction/total-vote.fitted.ts');
const NAME_OUT = path.resolve(import.meta.dirname, '../common/src/extraction/merchant-name.fitted.ts');
const ITERATIONS = 8000;
const LEARNING_RATE = 0.05;
/** Pulls weights towards 0 so a feature seen on a handful of receipts cannot take an extreme weight. */
const L2 = 0.002;

if (!existsSync(dumpDir)) {
  console.log(`train:fields: no saved recognitions at ${dumpDir}; run npm run bench:accuracy -- --dump ${dumpDir} first (it reads ../shared)`);
  process.exit(1);
}

interface Example {
  candidates: number[][];
  right: number;
}

const totalVector = (c: Pick<import('../common/src/index.js').TotalCandidate, 'features'>) => common.VOTE_FEATURES.map((f) => c.features[f] ?? 0);
const nameVector = (c: import('../common/src/index.js').NameCandidate) => common.NAME_FEATURES.map((f) => c.features[f]);
const totals: Example[] = [];
const names: Example[] = [];
let tuneReceipts = 0;
for (const set of sets.SETS) {
  for (const label of sets.loadSet(set)) {
    if (label.half !== 'tune') continue;
    const file = path.join(dumpDir, set, `${label.file}.json`);
    if (!existsSync(file)) continue;
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { content?: string; error?: string };
    if (doc.error || doc.content === undefined) continue;
    tuneReceipts++;
    const lines = common.textLines(doc.content);
    if (label.total !== null) {
      const currency = common.currencyDecision(lines.join('\n'), undefined, common.findChain(lines)).code;
      const { candidates } = common.findTotalsWithSources(lines, common.amountReader(currency), currency);
      const right = candidates.findIndex((c) => Math.abs(c.amount - label.total!) < 0.005);
      if (right >= 0 && candidates.length > 1) totals.push({ candidates: candidates.map(totalVector), right });
    }
    if (label.merchants.length > 0) {
      const candidates = common.nameCandidates(lines);
      const right = candidates.findIndex((c) => {
        const name = common.candidateName(lines, c)?.name;
        return name !== undefined && label.merchants.some((m) => nameSimilarity(name, m) >= MERCHANT_SIMILARITY);
      });
      if (right >= 0 && candidates.length > 1) names.push({ candidates: candidates.map(nameVector), right });
    }
  }
}

const dot = (w: readonly number[], x: readonly number[]) => w.reduce((s, wi, i) => s + wi * x[i]!, 0);

function loss(examples: readonly Example[], w: readonly number[]): number {
  let total = 0;
  for (const { candidates, right } of examples) {
    const scores = candidates.map((x) => dot(w, x));
    const max = Math.max(...scores);
    total -= scores[right]! - max - Math.log(scores.reduce((s, v) => s + Math.exp(v - max), 0));
  }
  return total / examples.length + L2 * dot(w, w);
}

/** Conditional logit by gradient descent from zero. */
function fit(examples: readonly Example[], size: number): number[] {
  const w = Array.from({ length: size }, () => 0);
  for (let it = 0; it < ITERATIONS; it++) {
    const grad = w.map((wi) => 2 * L2 * wi);
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
  return w.map((wi) => Math.round(wi * 100) / 100);
}

/** How many examples a weight vector ranks the right candidate first in (strictly: ties count against). */
const firsts = (examples: readonly Example[], w: readonly number[]) =>
  examples.filter(({ candidates, right }) => {
    const scores = candidates.map((x) => dot(w, x));
    return scores.every((s, j) => j === right || s < scores[right]!);
  }).length;

function report<F extends string>(field: string, features: readonly F[], examples: readonly Example[], handSet: Readonly<Record<F, number>>, fitted: readonly number[]): Record<F, number> {
  const hand = features.map((f) => handSet[f]);
  console.log(`\n${field}: ${examples.length} tune receipts with the labelled one among two or more candidates`);
  console.log(`  loss: hand-set ${loss(examples, hand).toFixed(3)}, fitted ${loss(examples, fitted).toFixed(3)}`);
  console.log(`  right candidate first (tune): hand-set ${firsts(examples, hand)}, fitted ${firsts(examples, fitted)} of ${examples.length}`);
  console.log(`  ${features.map((f, i) => `${f} ${handSet[f]} → ${fitted[i]}`).join(', ')}`);
  return Object.fromEntries(features.map((f, i) => [f, fitted[i]!])) as Record<F, number>;
}

console.log(`train:fields — ${tuneReceipts} tune-half receipts with a saved recognition`);
const fittedTotal = report('total', common.VOTE_FEATURES, totals, common.HAND_SET_VOTE_WEIGHTS, fit(totals, common.VOTE_FEATURES.length));
const fittedName = report('merchant', common.NAME_FEATURES, names, common.HAND_SET_NAME_WEIGHTS, fit(names, common.NAME_FEATURES.length));

writeFileSync(
  OUT,
  `// Written by \`npm run train:fields\` from ${totals.length} tune-half receipts of ../shared: do not edit.
import type { TotalVoteWeights } from './total-vote.features.js';

export const FITTED_VOTE_WEIGHTS: TotalVoteWeights = {
${common.VOTE_FEATURES.map((f) => `  ${f}: ${fittedTotal[f]},`).join('\n')}
};
`,
);
writeFileSync(
  NAME_OUT,
  `// Written by \`npm run train:fields\` from ${names.length} tune-half receipts of ../shared: do not edit.
import type { NameWeights } from './merchant-name.features.js';

export const FITTED_NAME_WEIGHTS: NameWeights = {
${common.NAME_FEATURES.map((f) => `  ${f}: ${fittedName[f]},`).join('\n')}
};
`,
);
console.log(`\nwrote ${path.relative(process.cwd(), OUT)} and ${path.relative(process.cwd(), NAME_OUT)}`);
