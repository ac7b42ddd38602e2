import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeMail } from './smtp-sink.js';

/**
 * The mails to `address` that a mailer without SMTP_URL wrote under `<dataDir>/mail/`, decoded,
 * oldest first (their file names start with the time they were written).
 */
export async function mailsInFolder(dataDir: string, address: string): Promise<string[]> {
  const dir = path.join(dataDir, 'mail');
  const files = (await readdir(dir).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map(async (f) => decodeMail(await readFile(path.join(dir, f), 'utf8'))));
  const to = new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}\\r?$`, 'mi');
  return mails.filter((m) => to.test(m));
}

/** The token of the invitation link (`/invite/<token>`) in a mail. */
export function invitationTokenIn(mail: string): string {
  const match = /\/invite\/([\w-]+)/.exec(mail);
  if (!match) throw new Error(`no invitation link in the mail:\n${mail}`);
  return match[1]!;
}
