import { createHash } from 'node:crypto';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/**
 * The Idempotency-Key of uploading `bytes` as `name`: the same file sent the same way is the same
 * request, so sending it again (a retry after a network error, or the command run again within the
 * api's 24 hours) answers with the first upload instead of making a second one. The key is the
 * file's SHA-256 and a short hash of the name and currency, which the api compares too (the same
 * key with another name or currency would be refused as a different request).
 */
export function uploadIdempotencyKey(bytes: Uint8Array, fields: { name: string; currency?: string }): string {
  const sent = sha256(`${fields.name}\n${fields.currency?.toUpperCase() ?? ''}`).slice(0, 16);
  return `receipts-cli-${sha256(bytes)}-${sent}`;
}
