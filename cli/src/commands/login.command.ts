import { ApiError, apiClient, call } from '../api-client.js';
import { UsageError } from '../cli-args.js';
import { configPath, DEFAULT_API_URL, writeConfig } from '../cli-config.js';
import { say, type CliIo } from '../cli-io.js';

/** The api's root URL as given, checked: http(s) and nothing after the host but a path. */
function apiUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--url must be the api's address, such as ${DEFAULT_API_URL} (not "${given}").`, 'login');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must start with http:// or https:// (not "${given}").`, 'login');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * `receipts login`: asks the api for one receipt with the token, then stores the URL and token.
 * A token refused a route (403) is still a token the api knows: stored, with what it may not do.
 */
export async function login(command: { token: string; url: string | undefined }, io: CliIo, version: string): Promise<number> {
  const url = apiUrl(command.url ?? io.env.RECEIPTS_URL ?? DEFAULT_API_URL);
  const client = apiClient({ url, token: command.token }, version);
  try {
    await call(() => client.GET('/api/receipts', { params: { query: { pageSize: 1 } } }));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403)) throw err;
    say(io.stderr, `warning: ${err.message}`);
  }
  const file = configPath(io.env);
  await writeConfig(file, { url, token: command.token });
  say(io.stdout, `Logged in to ${url}. The token is kept in ${file}, readable by you only.`);
  return 0;
}
