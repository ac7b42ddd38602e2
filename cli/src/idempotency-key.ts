import { createHash } from 'node:crypto';

/**
 * The Idempotency-Key of uploading `bytes`: the same file with the same options is the same
 * request, so sending it again (a retry after a network error, or the command run again) answers
 * with the first upload instead of making a second one. The options are part of it: the same file
 * asked with another currency is another request.
 */
export function uploadIdempotencyKey(bytes: Uint8Array, options: { currency?: string } = {}): string {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return options.currency ? `receipts-cli-${sha256}-${options.currency.toUpperCase()}` : `receipts-cli-${sha256}`;
}
