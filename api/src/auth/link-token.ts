import { createHash, randomBytes } from 'node:crypto';

/** A mailed link's token as it is stored: its SHA-256, hex. */
export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A mailed link's token: 256 random bits, stored only as its SHA-256. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: linkTokenHash(token) };
}
