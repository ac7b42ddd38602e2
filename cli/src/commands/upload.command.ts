import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, type ApiClient } from '../api-client.js';
import { UsageError } from '../cli-args.js';
import { say, type CliIo } from '../cli-io.js';
import type { paths } from '../generated/api-schema.js';
import { uploadIdempotencyKey } from '../idempotency-key.js';
import { ProgressBar } from '../progress-bar.js';
import { collectReceiptFiles } from '../receipt-files.js';
import { formatMoney, textTable } from '../text-table.js';

export type UploadView = paths['/api/uploads/{id}']['get']['responses'][200]['content']['application/json'];
type UploadStatus = UploadView['status'];

/** Statuses an upload does not leave. */
const FINAL: readonly UploadStatus[] = ['completed', 'failed', 'cancelled'];
/** Files sent at once: enough to keep the api busy, few enough not to crowd a token's rate. */
const PARALLEL_UPLOADS = 3;

/** What became of one file: its upload as last seen, or why it never got one. */
export interface FileOutcome {
  file: string;
  upload?: { id: string; status: UploadStatus; receipt?: UploadView['receipt']; error?: string };
  error?: string;
}

export interface UploadOptions {
  /** Between two looks at uploads still being read, with --wait. */
  pollMs?: number;
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const failed = (outcome: FileOutcome) => outcome.error !== undefined || (outcome.upload !== undefined && outcome.upload.status !== 'completed' && FINAL.includes(outcome.upload.status));

async function sendFile(client: ApiClient, file: string, currency: string | undefined): Promise<FileOutcome['upload']> {
  const bytes = await readFile(file);
  const name = path.basename(file);
  // The same request every time: a retry, or this command run again, is answered with the first upload.
  const key = uploadIdempotencyKey(bytes, { name, currency });
  const { data } = await call(() =>
    client.POST('/api/ocr', {
      params: { header: { 'Idempotency-Key': key } },
      body: { file: new File([bytes], name), ...(currency ? { currencyCode: currency } : {}) },
      bodySerializer: (body) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(body)) if (value !== undefined) form.append(name, value as Blob | string);
        return form;
      },
    }),
  );
  return data;
}

/** Follows the uploads still being read until each is final: one list a round, an upload by its id only when the list no longer holds it. */
async function waitForUploads(client: ApiClient, outcomes: FileOutcome[], io: CliIo, pollMs: number): Promise<void> {
  const pending = outcomes.filter((o) => o.upload && !FINAL.includes(o.upload.status));
  if (pending.length === 0) return;
  const bar = new ProgressBar(io.stderr, 'Processing', pending.length);
  const settle = (outcome: FileOutcome, view: UploadView) => {
    outcome.upload = view;
    if (!FINAL.includes(view.status)) return false;
    bar.tick(`${outcome.file}: ${view.status}${view.error ? ` (${view.error})` : ''}`);
    return true;
  };
  let waiting = pending;
  while (waiting.length > 0) {
    const { data: list } = await call(() => client.GET('/api/uploads'));
    const byId = new Map(list.map((u) => [u.id, u]));
    const still: FileOutcome[] = [];
    for (const outcome of waiting) {
      const id = outcome.upload!.id;
      const view = byId.get(id) ?? (await call(() => client.GET('/api/uploads/{id}', { params: { path: { id } } }))).data;
      if (!settle(outcome, view)) still.push(outcome);
    }
    waiting = still;
    if (waiting.length > 0) await sleep(pollMs);
  }
  bar.finish();
}

/** The summary: a row per file, then why each failed one failed. */
export function uploadSummary(outcomes: readonly FileOutcome[]): string {
  const rows = outcomes.map((o) => {
    const receipt = o.upload?.receipt;
    return [o.file, o.error ? 'not sent' : (o.upload?.status ?? ''), receipt?.merchantName ?? '', receipt?.date ?? '', formatMoney(receipt?.total, receipt?.currency)];
  });
  const table = textTable(['file', 'status', 'merchant', 'date', 'total'], rows, [4]);
  const problems = outcomes.filter(failed).map((o) => `${o.file}: ${o.error ?? o.upload?.error ?? o.upload?.status}`);
  const counts = `${outcomes.length} file${outcomes.length === 1 ? '' : 's'}, ${outcomes.filter(failed).length} failed`;
  return [table, '', counts, ...problems].join('\n');
}

/**
 * `receipts upload`: every receipt file of the paths sent (a bar over the files), with --wait
 * followed until read (a bar over their processing), then a table of what became of each. 1 when
 * any file was not sent or not read.
 */
export async function upload(command: { paths: string[]; wait: boolean; currency: string | undefined }, io: CliIo, client: ApiClient, options: UploadOptions = {}): Promise<number> {
  const files = await collectReceiptFiles(command.paths);
  if (files.length === 0) throw new UsageError(`No receipt files in ${command.paths.join(', ')} (looked for images and PDFs by their extension).`, 'upload');
  const outcomes: FileOutcome[] = files.map((file) => ({ file }));
  const bar = new ProgressBar(io.stderr, 'Uploading', files.length);
  await inPool(files, PARALLEL_UPLOADS, async (file, index) => {
    const outcome = outcomes[index]!;
    try {
      outcome.upload = await sendFile(client, file, command.currency);
      bar.tick(`${file}: ${outcome.upload!.status}`);
    } catch (err) {
      outcome.error = (err as Error).message;
      bar.tick(`${file}: not sent (${outcome.error})`);
    }
  });
  bar.finish();
  if (command.wait) await waitForUploads(client, outcomes, io, options.pollMs ?? 1500);
  say(io.stdout, uploadSummary(outcomes));
  return outcomes.some(failed) ? 1 : 0;
}
