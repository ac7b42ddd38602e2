import { FileStoreUnusableError, RedisUnavailableError } from '@receipts/infra';

/**
 * For a start-up step's rejection: a service the process cannot start without (Redis, the
 * originals' store) is the operator's to fix, so its message goes to stderr and the process
 * exits 1; anything else is thrown on.
 */
export function exitOnSetupError(err: unknown): never {
  if (err instanceof RedisUnavailableError || err instanceof FileStoreUnusableError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
