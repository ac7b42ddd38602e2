// npm run bench:accuracy — the extraction pipeline (the CLI's engine) on every receipt in
// ../shared/receipts against labels.json, and OCR time beside native `tesseract` on the same images.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseConfig } from '@receipts/infra';
import { runPipeline } from '@receipts/worker';
import { createOcrEngineFromConfig } from '../worker/src/ocr/create-ocr-engine.js';
import { receiptsDir } from '../tests/support/service-process.js';
import { labelDate, labelTotal, loadLabels, MERCHANT_SIMILARITY, nameSimilarity } from '../tests/support/sroie.js';

const CONCURRENCY = Math.min(2, os.availableParallelism());
const run = promisify(execFile);
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

/** Runs `task` over `items` with CONCURRENCY at once. */
async function pool<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

async function nativeTesseract(): Promise<string | null> {
  try {
    const { stdout, stderr } = await run('tesseract', ['--version']);
    return (stdout || stderr).split('\n')[0]!;
  } catch {
    return null;
  }
}

const config = parseConfig({ ...process.env, ROLES: 'api,worker' });
const labels = await loadLabels();
const engine = createOcrEngineFromConfig(config, CONCURRENCY);
const signal = new AbortController().signal;
const noStep = async () => undefined;
// Warm the pool: worker start-up is paid once per process, not per receipt.
await runPipeline({ bytes: await readFile(path.join(receiptsDir, labels[0]!.file)), mimeType: 'image/jpeg' }, engine, noStep, signal);

const ours = await pool(labels, async (label) => {
  const bytes = await readFile(path.join(receiptsDir, label.file));
  const started = performance.now();
  const { receipt } = await runPipeline({ bytes, mimeType: 'image/jpeg' }, engine, noStep, signal);
  return {
    ms: performance.now() - started,
    total: receipt.total === labelTotal(label),
    date: receipt.date === labelDate(label),
    merchant: nameSimilarity(receipt.merchantName, label.company) >= MERCHANT_SIMILARITY,
  };
});
await engine.close();

const n = labels.length;
const count = (key: 'total' | 'date' | 'merchant') => ours.filter((r) => r[key]).length;
const pct = (k: number) => `${((k / n) * 100).toFixed(1)} %`;
console.log(`bench:accuracy — ${n} SROIE receipts, engine ${config.ocrEngine}, concurrency ${CONCURRENCY}\n`);
console.log('| field | correct | share | target |');
console.log('| --- | --- | --- | --- |');
console.log(`| total (exact, currency prefix removed) | ${count('total')}/${n} | ${pct(count('total'))} | ≥ 95 % |`);
console.log(`| date (same calendar day) | ${count('date')}/${n} | ${pct(count('date'))} | ≥ 95 % |`);
console.log(`| merchant (similarity ≥ ${MERCHANT_SIMILARITY}) | ${count('merchant')}/${n} | ${pct(count('merchant'))} | ≥ 85 % |`);

const ourTimes = ours.map((r) => r.ms);
console.log(`\n| time per receipt | p50 | p95 |`);
console.log('| --- | --- | --- |');
console.log(`| ours: decode + OCR + extraction (tesseract.js) | ${quantile(ourTimes, 0.5).toFixed(0)} ms | ${quantile(ourTimes, 0.95).toFixed(0)} ms |`);
const version = await nativeTesseract();
if (!version) {
  console.log('| native tesseract | not installed | (apt-get install tesseract-ocr) |');
} else {
  const native = await pool(labels, async (label) => {
    const started = performance.now();
    await run('tesseract', [path.join(receiptsDir, label.file), 'stdout', '-l', 'eng'], { maxBuffer: 10 * 1024 * 1024 });
    return performance.now() - started;
  });
  console.log(`| native ${version} (baseline) | ${quantile(native, 0.5).toFixed(0)} ms | ${quantile(native, 0.95).toFixed(0)} ms |`);
  console.log(`| ratio ours / native (target ≤ 1.0) | ${(quantile(ourTimes, 0.5) / quantile(native, 0.5)).toFixed(2)} | ${(quantile(ourTimes, 0.95) / quantile(native, 0.95)).toFixed(2)} |`);
}
process.exit(0);
