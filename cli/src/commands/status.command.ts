import { ApiError, call, type ApiClient } from '../api-client.js';
import { say, type CliIo } from '../cli-io.js';
import { formatMoney, textTable } from '../text-table.js';

/** Uploads `receipts status` lists, the latest first. */
const RECENT = 10;

/** `receipts status`: the quota (where the token may read it) and the latest uploads. */
export async function status(io: CliIo, client: ApiClient, url: string): Promise<number> {
  say(io.stdout, `api: ${url}`);
  try {
    const { data: quota } = await call(() => client.GET('/api/user/quota'));
    say(io.stdout, `quota: ${quota.used} of ${quota.limit} receipts used, resets ${new Date(quota.resetDate).toLocaleString()}`);
  } catch (err) {
    // A token whose scopes do not reach the quota still sees its uploads.
    if (!(err instanceof ApiError && err.status === 403)) throw err;
    say(io.stdout, `quota: not shown (${err.message})`);
  }
  const { data: uploads } = await call(() => client.GET('/api/uploads'));
  if (uploads.length === 0) {
    say(io.stdout, '\nNo uploads yet. Send some with `receipts upload <files or folders>`.');
    return 0;
  }
  const rows = uploads.slice(0, RECENT).map((u) => [new Date(u.createdAt).toLocaleString(), u.filename, u.status, u.receipt?.merchantName ?? '', u.receipt?.date ?? '', formatMoney(u.receipt?.total, u.receipt?.currency)]);
  say(io.stdout, `\nLatest uploads (${Math.min(RECENT, uploads.length)} of ${uploads.length}):\n${textTable(['uploaded', 'file', 'status', 'merchant', 'date', 'total'], rows, [5])}`);
  return 0;
}
