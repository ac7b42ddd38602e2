import { configPath, removeConfig } from '../cli-config.js';
import { say, type CliIo } from '../cli-io.js';

/** `receipts logout`: forgets the stored token (it stays valid until revoked on the account page). */
export async function logout(io: CliIo): Promise<number> {
  const file = configPath(io.env);
  const removed = await removeConfig(file);
  say(io.stdout, removed ? `Logged out: ${file} deleted. Revoke the token on your account page if it should stop working.` : 'Not logged in: nothing to forget.');
  if (io.env.RECEIPTS_TOKEN) say(io.stderr, 'RECEIPTS_TOKEN is still set in this environment: commands keep using it.');
  return 0;
}
