import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './service-process.js';

/**
 * Whether a file of the shared sets (../shared) is there. Tests over the shared sets run when it
 * is and, when it is not, are skipped with one plain line saying so: the suite passes either way.
 */
export function sharedFileThere(file: string, what: string): boolean {
  if (existsSync(file)) return true;
  console.log(`skipped: ${what} — ${path.relative(repoRoot, file)} is not beside the repository`);
  return false;
}
