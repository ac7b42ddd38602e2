// npm run -s extract -- [--engine local|documentai|vlm] FILE...
// One JSON line per file: { file, receipt, issues, valid, ms }, or { file, error } and on to the next.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { MAX_UPLOAD_BYTES, renderIssue, sniffMimeType, USER_MESSAGES } from '@receipts/common';
import { parseConfig, ConfigError } from '@receipts/infra';
import { createOcrEngineFromConfig } from '../pipeline/create-ocr-engine.js';
import { runPipeline } from '../pipeline/receipt.pipeline.js';

const usage = 'usage: npm run -s extract -- [--engine local|documentai|vlm] [--currency CODE] FILE...';

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { engine: { type: 'string' }, currency: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}\n`);
  process.exit(2);
}
if (args.values.help || args.positionals.length === 0) {
  process.stderr.write(`${usage}\n`);
  process.exit(args.values.help ? 0 : 2);
}

let config;
try {
  config = parseConfig({ ...process.env, ...(args.values.engine ? { OCR_ENGINE: args.values.engine } : {}), ROLES: 'api,worker' });
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
  process.exit(2);
}

// Logs (a vision model's retries) go to stderr: stdout is the JSON lines.
const engine = createOcrEngineFromConfig(config, 1, pino({ level: config.LOG_LEVEL, base: { role: 'extract' } }, pino.destination(2)));
const noStep = async () => undefined;

for (const file of args.positionals) {
  const started = performance.now();
  try {
    const bytes = await readFile(file);
    if (bytes.length === 0) throw new Error('The file is empty.');
    if (bytes.length > MAX_UPLOAD_BYTES) throw new Error(USER_MESSAGES.fileTooLarge);
    const mimeType = sniffMimeType(bytes);
    if (!mimeType) throw new Error(USER_MESSAGES.unsupportedFile);
    const result = await runPipeline(
      { bytes, mimeType, currencyCode: args.values.currency?.toUpperCase() },
      engine,
      noStep,
      AbortSignal.timeout(120_000),
    );
    const ms = Math.round(performance.now() - started);
    process.stdout.write(`${JSON.stringify({ file, receipt: result.receipt, issues: result.issues.map(renderIssue), valid: result.valid, ms })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ file, error: (err as Error).message })}\n`);
  }
}
await engine.close();
