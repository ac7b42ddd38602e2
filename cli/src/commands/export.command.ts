import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { call, type ApiClient } from '../api-client.js';
import type { ExportRequest } from '../cli-args.js';
import { say, type CliIo } from '../cli-io.js';

/**
 * Streams `body` to `out` through a file beside it, renamed over `out` once whole: an export cut
 * off half-way leaves the old file (or none), never half of one.
 */
async function writeAtomically(out: string, body: WebReadableStream<Uint8Array>): Promise<void> {
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(4).toString('hex')}.part`);
  try {
    await pipeline(Readable.fromWeb(body), createWriteStream(partial, { flags: 'wx', mode: 0o644 }));
    await rename(partial, out);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

const formatSize = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** `receipts export`: POST /api/export with the filters, the file written to --out. */
export async function exportReceipts(command: { out: string; request: ExportRequest }, io: CliIo, client: ApiClient): Promise<number> {
  const { data, response } = await call(() => client.POST('/api/export', { body: command.request, parseAs: 'stream' }));
  if (!data) throw new Error('The api answered the export without a file.');
  await writeAtomically(command.out, data as WebReadableStream<Uint8Array>);
  // What the api says of the file's receipts (X-Export-Issues, X-Export-Skipped), beside its size.
  const count = (name: string) => Number(response.headers.get(name) ?? 0);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const notes = [
    count('X-Export-Issues') ? `${plural(count('X-Export-Issues'), 'receipt has', 'receipts have')} issues to review` : '',
    count('X-Export-Skipped') ? `${plural(count('X-Export-Skipped'), 'receipt was', 'receipts were')} left out` : '',
  ].filter(Boolean);
  say(io.stdout, `Wrote ${command.out} (${formatSize((await stat(command.out)).size)}).${notes.map((n) => ` ${n[0]!.toUpperCase()}${n.slice(1)}.`).join('')}`);
  return 0;
}
