import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where the api answers and the token to call it with. */
export interface Credentials {
  url: string;
  token: string;
}

/** The api `receipts login` points at when no --url is given: the one `npm start` serves. */
export const DEFAULT_API_URL = 'http://localhost:3000';

/** `$XDG_CONFIG_HOME/receipts/config.json`, else `~/.config/receipts/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), '.config');
  return path.join(base, 'receipts', 'config.json');
}

/** A config file that is there but cannot be read as one. */
export class ConfigFileError extends Error {}

/** What the config file holds (null when there is none). */
export async function readConfig(file: string): Promise<Partial<Credentials> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigFileError(`${file} is not valid JSON. Run \`receipts login\` again to rewrite it.`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new ConfigFileError(`${file} does not hold a login. Run \`receipts login\` again.`);
  const { url, token } = parsed as Record<string, unknown>;
  return { ...(typeof url === 'string' ? { url } : {}), ...(typeof token === 'string' ? { token } : {}) };
}

/**
 * Writes the login readable by its owner only (0600, its folder 0700): it holds a token. Written
 * to a file beside it and renamed over it, so a reader never sees half of one.
 */
export async function writeConfig(file: string, credentials: Credentials): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ url: credentials.url, token: credentials.token }, null, 2)}\n`, { mode: 0o600 });
    // The mode of writeFile is masked by the umask; the file must be 0600 whatever it is.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** Forgets the stored login; false when there was none. */
export async function removeConfig(file: string): Promise<boolean> {
  try {
    await rm(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** No token in the environment nor in the config file. */
export class NotLoggedInError extends Error {
  constructor() {
    super('Not logged in. Run `receipts login --token <token>` (create a token on your account page), or set RECEIPTS_TOKEN.');
  }
}

/** The credentials to call the api with: RECEIPTS_TOKEN and RECEIPTS_URL override what `receipts login` stored. */
export async function resolveCredentials(env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  const fromEnv = { url: env.RECEIPTS_URL?.trim() || undefined, token: env.RECEIPTS_TOKEN?.trim() || undefined };
  const stored = fromEnv.token && fromEnv.url ? null : await readConfig(configPath(env));
  const token = fromEnv.token ?? stored?.token;
  if (!token) throw new NotLoggedInError();
  return { url: fromEnv.url ?? stored?.url ?? DEFAULT_API_URL, token };
}
